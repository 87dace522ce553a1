package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.coordination.gate.ReconcileLanes;
import dev.versio.coordination.kubernetes.CoordinationMetrics;
import dev.versio.operator.metrics.OperatorMetrics;
import dev.versio.testkit.stories.ExampleStory;
import dev.versio.webhook.metrics.WebhookMetrics;
import dev.versio.webhook.review.ReviewOutcome;
import dev.versio.webhook.review.ReviewResult;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.javaoperatorsdk.operator.Operator;
import io.javaoperatorsdk.operator.api.reconciler.Constants;
import io.javaoperatorsdk.operator.api.reconciler.Context;
import io.javaoperatorsdk.operator.api.reconciler.ControllerConfiguration;
import io.javaoperatorsdk.operator.api.reconciler.Reconciler;
import io.javaoperatorsdk.operator.api.reconciler.RetryInfo;
import io.javaoperatorsdk.operator.api.reconciler.UpdateControl;
import io.javaoperatorsdk.operator.monitoring.micrometer.MicrometerMetricsV2;
import io.javaoperatorsdk.operator.processing.event.ResourceID;
import io.javaoperatorsdk.operator.processing.event.source.ResourceAction;
import io.javaoperatorsdk.operator.processing.event.source.controller.ResourceEvent;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every metric the chart's alerts ({@code charts/versio/rules/versio-alerts.yaml}) and Grafana
 * dashboards ({@code charts/versio/dashboards/*.json}) query is one the code registers: the names
 * come from scraping the real metric classes on fresh registries, after one call of each recording
 * method (a labelled meter appears with its first event), exactly as Prometheus sees them (with
 * {@code _total}, {@code _seconds_bucket}, … suffixes).
 */
class DashboardsAndAlertsQueryRegisteredMetricsTest {
  /** Metrics of other exporters the chart queries on purpose. */
  private static final Set<String> OTHER_EXPORTERS =
      Set.of(
          // kube-state-metrics: webhook-server replicas that crash or never start export nothing
          "kube_deployment_status_replicas_unavailable");

  private static final YAMLMapper YAML = new YAMLMapper();
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void everyMetricTheAlertsAndDashboardsQueryIsRegistered() throws Exception {
    var registered = registeredMetricNames();
    var queries = queries();
    assertThat(queries.keySet())
        .as("queries found")
        .anyMatch(k -> k.startsWith("rules/"))
        .anyMatch(k -> k.startsWith("dashboards/versio-webhook-server.json"))
        .anyMatch(k -> k.startsWith("dashboards/versio-operator.json"));

    var unknown = new TreeMap<String, Set<String>>();
    for (var query : queries.entrySet()) {
      var found = metricNames(query.getValue());
      assertThat(found).as("metric names in %s: %s", query.getKey(), query.getValue()).isNotEmpty();
      for (var name : found) {
        if (!registered.contains(name) && !OTHER_EXPORTERS.contains(name)) {
          unknown.computeIfAbsent(name, n -> new TreeSet<>()).add(query.getKey());
        }
      }
    }
    assertThat(unknown)
        .as(
            "metrics queried but not registered by WebhookMetrics, OperatorMetrics (with JOSDK's"
                + " MicrometerMetricsV2) or CoordinationMetrics; registered are:%n%s",
            String.join("\n", registered))
        .isEmpty();
  }

  @Test
  void theExtractorFindsMetricNamesButNotFunctionsLabelsOrVariables() {
    assertThat(
            metricNames(
                "histogram_quantile(0.99, sum by (target, le) (rate(a_seconds_bucket{namespace="
                    + "\"$namespace\", pod=~\"{{ include \"x\" . }}-.+\"}[$__rate_interval])))"
                    + " > 1 and on (pod) b unless ignoring(le) c offset 15m or"
                    + " label_replace(d_total, \"server\", \"$1\", \"pod\", \"(.+)\") - time()"
                    + " < 7 * 86400 or sum(e) by (le) / count without (x) (f:recorded[5m:1m])"))
        .containsExactlyInAnyOrder("a_seconds_bucket", "b", "c", "d_total", "e", "f:recorded");
  }

  /** The sample names of every metric the code registers, scraped as Prometheus text. */
  private static Set<String> registeredMetricNames() throws Exception {
    var names = new TreeSet<String>();
    names.addAll(sampleNames(webhookScrape()));
    names.addAll(sampleNames(operatorScrape()));
    names.addAll(sampleNames(coordinationScrape()));
    return names;
  }

  private static String webhookScrape() {
    var metrics = new WebhookMetrics(true);
    for (var result : ReviewResult.values()) {
      metrics.review(
          "widgets.example.com",
          new ReviewOutcome(200, null, null, result, "uid", "v1", "v2", 2, null),
          1_000_000);
    }
    metrics.review(
        "widgets.example.com",
        new ReviewOutcome(200, null, null, ReviewResult.ERROR, "uid", "v1", "v2", 2, "boom"),
        1_000_000);
    metrics.compile("widgets.example.com", "success", null, 1_000);
    metrics.compile("widgets.example.com", "error", "InvalidRules", 1_000);
    metrics.unexpected("review");
    metrics.routed("local");
    metrics.forwarded("answered", 1_000_000);
    metrics.forwarded("failed", 0);
    metrics.tlsReload(true);
    metrics.tlsReload(false);
    metrics.certificateExpires(java.time.Instant.parse("2027-01-01T00:00:00Z"));
    metrics.registry(Map.of());
    metrics.initialSync(1, Duration.ofSeconds(1));
    return metrics.scrape();
  }

  /**
   * Versio's operator metrics and JOSDK's, on one registry as {@code VersioOperator} wires them.
   */
  private static String operatorScrape() {
    var metrics = new OperatorMetrics();
    metrics.write("status", true);
    metrics.analyzeFailure("crd", "widgets.example.com", "InvalidConfig");
    metrics.applyDuration("crd", "widgets.example.com", true, Duration.ofMillis(20));
    metrics.phaseTransition("crd", "widgets.example.com", null, "Applied", "Applied");
    metrics.watchMapListError("crdconversionconfig.mapServer");
    metrics.xrdApiAvailable(true);
    metrics.ready(true);
    metrics.configPhases(Map.of("CRDConversionConfig", () -> java.util.List.of("Applied")));

    var josdk = MicrometerMetricsV2.newBuilder(metrics.registry()).build();
    var config = Config.empty();
    config.setMasterUrl("https://127.0.0.1:1"); // never contacted: the operator is not started
    try (var client = new KubernetesClientBuilder().withConfig(config).build()) {
      var operator = new Operator(o -> o.withKubernetesClient(client).withMetrics(josdk));
      operator.register(new NoopReconciler()); // Controller calls Metrics.controllerRegistered
    }
    ConfigMap resource =
        new ConfigMapBuilder()
            .withNewMetadata()
            .withName("a")
            .withNamespace("ns")
            .endMetadata()
            .build();
    Map<String, Object> meta = Map.of(Constants.CONTROLLER_NAME, NoopReconciler.NAME);
    RetryInfo retry =
        new RetryInfo() {
          @Override
          public int getAttemptCount() {
            return 1;
          }

          @Override
          public boolean isLastAttempt() {
            return false;
          }
        };
    var id = ResourceID.fromResource(resource);
    josdk.eventReceived(new ResourceEvent(ResourceAction.ADDED, id, resource), meta);
    josdk.reconciliationSubmitted(resource, retry, meta);
    josdk.reconciliationStarted(resource, meta);
    josdk.reconciliationSucceeded(resource, meta);
    josdk.reconciliationFailed(resource, retry, new IllegalStateException("test"), meta);
    josdk.reconciliationFinished(resource, retry, meta);
    josdk.cleanupDone(id, meta);
    return metrics.scrape();
  }

  /**
   * versio-coordination's metrics, as every operator replica registers them in its own registry
   * (shards, members, queue waits, resync backlog).
   */
  private static String coordinationScrape() {
    var registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    var metrics = new CoordinationMetrics(registry);
    for (var lane : ReconcileLanes.Lane.values()) {
      metrics.queueWait(lane, Duration.ofMillis(5));
    }
    metrics.resyncBacklog(() -> 0);
    return registry.scrape();
  }

  @ControllerConfiguration(name = NoopReconciler.NAME)
  static final class NoopReconciler implements Reconciler<ConfigMap> {
    static final String NAME = "crdconversionconfig";

    @Override
    public UpdateControl<ConfigMap> reconcile(ConfigMap resource, Context<ConfigMap> context) {
      return UpdateControl.noUpdate();
    }
  }

  /** The name of every sample line of a Prometheus text exposition. */
  static Set<String> sampleNames(String exposition) {
    var names = new TreeSet<String>();
    for (var line : exposition.lines().toList()) {
      if (line.isBlank() || line.startsWith("#")) {
        continue;
      }
      var end = line.length();
      for (var stop : new char[] {'{', ' '}) {
        var i = line.indexOf(stop);
        if (i >= 0) {
          end = Math.min(end, i);
        }
      }
      names.add(line.substring(0, end));
    }
    return names;
  }

  /**
   * Every PromQL expression of the chart, keyed by where it is: the alerts' {@code expr} and the
   * dashboards' {@code targets[].expr} and {@code label_values(…)} variable queries.
   */
  private static Map<String, String> queries() throws IOException {
    var chart = ExampleStory.repositoryRoot().resolve("charts/versio");
    var out = new TreeMap<String, String>();
    var rules = YAML.readTree(chart.resolve("rules/versio-alerts.yaml").toFile());
    for (var group : rules.path("groups")) {
      for (var rule : group.path("rules")) {
        var name = rule.has("alert") ? rule.path("alert").asText() : rule.path("record").asText();
        out.put("rules/" + group.path("name").asText() + "/" + name, rule.path("expr").asText());
      }
    }
    List<Path> dashboards;
    try (var files = Files.list(chart.resolve("dashboards"))) {
      dashboards = files.filter(f -> f.toString().endsWith(".json")).sorted().toList();
    }
    for (var file : dashboards) {
      var where = "dashboards/" + file.getFileName();
      var dashboard = JSON.readTree(file.toFile());
      panelQueries(where, dashboard.path("panels"), out);
      assertThat(out.keySet().stream().filter(k -> k.startsWith(where)).count())
          .as("%s: every expr is in a panel's targets", where)
          .isEqualTo(dashboard.findValues("expr").size());
      for (var variable : dashboard.path("templating").path("list")) {
        if (variable.path("type").asText().equals("query")) {
          var query = variable.path("query");
          var text = query.isObject() ? query.path("query").asText() : query.asText();
          var m = LABEL_VALUES.matcher(text);
          if (m.matches()) {
            out.put(where + " variable " + variable.path("name").asText(), m.group(1));
          }
        }
      }
    }
    return out;
  }

  /** The {@code targets[].expr} of every panel, rows' nested panels included. */
  private static void panelQueries(String where, JsonNode panels, Map<String, String> out) {
    for (var panel : panels) {
      for (var target : panel.path("targets")) {
        if (target.has("expr")) {
          out.put(
              where + " panel \"" + panel.path("title").asText() + "\" " + target.path("refId"),
              target.path("expr").asText());
        }
      }
      panelQueries(where, panel.path("panels"), out);
    }
  }

  /** {@code label_values(<series selector>, <label>)}: the selector is the query. */
  private static final Pattern LABEL_VALUES =
      Pattern.compile("\\s*label_values\\((.*),\\s*[A-Za-z_][A-Za-z0-9_]*\\s*\\)\\s*");

  /** Helm actions ({{ … }}), strings, numbers and durations, variables, names, one character. */
  private static final Pattern TOKEN =
      Pattern.compile(
          "\\{\\{.*?}}"
              + "|\"(?:[^\"\\\\]|\\\\.)*\"|'(?:[^'\\\\]|\\\\.)*'|`[^`]*`"
              + "|\\$\\{?\\w+}?"
              + "|[0-9][0-9A-Za-z_.]*"
              + "|[A-Za-z_:][A-Za-z0-9_:]*"
              + "|\\S");

  /** Operators, modifiers and aggregations (these may stand before a {@code by (…)} list). */
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "bool",
          "offset",
          "atan2",
          "inf",
          "nan",
          "sum",
          "min",
          "max",
          "avg",
          "group",
          "stddev",
          "stdvar",
          "count",
          "count_values",
          "bottomk",
          "topk",
          "quantile",
          "limitk",
          "limit_ratio");

  private static final Set<String> LABEL_LIST_KEYWORDS =
      Set.of("by", "without", "on", "ignoring", "group_left", "group_right");

  /**
   * The metric names in a PromQL expression: names that are not followed by {@code (} (functions
   * and aggregations), not inside {@code {…}} (label matchers) or {@code […]} (ranges), not in the
   * label list after {@code by}, {@code without}, {@code on}, {@code ignoring}, {@code group_left}
   * or {@code group_right}, and not keywords.
   */
  static Set<String> metricNames(String expr) {
    var tokens = new ArrayList<String>();
    var m = TOKEN.matcher(expr);
    while (m.find()) {
      tokens.add(m.group());
    }
    var names = new TreeSet<String>();
    int braces = 0;
    int brackets = 0;
    for (int i = 0; i < tokens.size(); i++) {
      var token = tokens.get(i);
      switch (token) {
        case "{" -> braces++;
        case "}" -> braces--;
        case "[" -> brackets++;
        case "]" -> brackets--;
        default -> {
          if (braces > 0 || brackets > 0 || !token.matches("[A-Za-z_:][A-Za-z0-9_:]*")) {
            continue;
          }
          var next = i + 1 < tokens.size() ? tokens.get(i + 1) : "";
          var lower = token.toLowerCase(java.util.Locale.ROOT);
          if (LABEL_LIST_KEYWORDS.contains(lower)) {
            if (next.equals("(")) {
              i = closing(tokens, i + 1);
            }
          } else if (!next.equals("(") && !KEYWORDS.contains(lower)) {
            names.add(token);
          }
        }
      }
    }
    return names;
  }

  /** The index of the parenthesis that closes the one at {@code open}. */
  private static int closing(List<String> tokens, int open) {
    int depth = 0;
    for (int i = open; i < tokens.size(); i++) {
      if (tokens.get(i).equals("(")) {
        depth++;
      } else if (tokens.get(i).equals(")") && --depth == 0) {
        return i;
      }
    }
    return tokens.size();
  }
}
