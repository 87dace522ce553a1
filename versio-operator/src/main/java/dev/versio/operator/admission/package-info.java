/**
 * Versio's validating admission webhook for its own three kinds: pure validators ({@link
 * dev.versio.operator.admission.ConfigValidator}, {@link
 * dev.versio.operator.admission.ServerValidator}) over a read-only {@link
 * dev.versio.operator.admission.ClusterView}; review processing without HTTP ({@link
 * dev.versio.operator.admission.AdmissionProcessor}); the HTTPS transport ({@link
 * dev.versio.operator.admission.AdmissionEndpoint}); and start-up with registration ({@link
 * dev.versio.operator.admission.AdmissionServer}, {@link
 * dev.versio.operator.admission.WebhookRegistration}).
 */
package dev.versio.operator.admission;
