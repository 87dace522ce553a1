{{/* The operator's name: <release>-versio-operator, or versio-operator when the release is "versio". */}}
{{- define "versio.operatorName" -}}
{{- if eq .Release.Name "versio" -}}versio-operator{{- else -}}{{ printf "%s-versio-operator" .Release.Name | trunc 63 | trimSuffix "-" }}{{- end -}}
{{- end -}}

{{- define "versio.image" -}}
{{- printf "%s:%s" .Values.image.repository (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}

{{/* Labels every object of the chart carries. */}}
{{- define "versio.labels" -}}
app.kubernetes.io/name: versio
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version }}
{{- end -}}

{{- define "versio.operatorSelector" -}}
app.kubernetes.io/name: versio
app.kubernetes.io/instance: {{ .Release.Name }}
app.kubernetes.io/component: operator
{{- end -}}
