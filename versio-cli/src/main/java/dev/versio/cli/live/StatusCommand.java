package dev.versio.cli.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.api.config.CRDConversionConfig;
import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.config.StorageMigrationStatus;
import dev.versio.api.config.XRDConversionConfig;
import dev.versio.api.served.ServedTargetsCodec;
import dev.versio.api.served.VersionUse;
import dev.versio.api.served.VersionsSeenCodec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.EndpointMatch;
import dev.versio.cli.offline.Output;
import dev.versio.cli.offline.OutputFormat;
import dev.versio.engine.json.EngineJson;
import dev.versio.operator.lifecycle.VersionLifecycle;
import dev.versio.operator.migrate.GeneratedCrds;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code versio status}: per target, where its conversions go and whether a move is under way — the
 * config's phase, the server it is assigned to, the server the live CRD names, and which
 * webhook-server replicas publish that they serve it.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = {
      "Show every converted target: its config and phase, the server it is assigned to, the server"
          + " the live CRD (or XRD) sends its reviews to, the webhook-server replicas that publish"
          + " serving it, and any move in progress with its HandoverReady condition."
    },
    footerHeading = "%nExample:%n",
    footer = {
      "  versio status --context prod -o json",
      "  versio status --operator",
      "",
      "Exit codes: 0 shown, 2 bad flags or the cluster unreachable."
    })
public final class StatusCommand implements Callable<Integer> {
  @Mixin ClusterOptions cluster;

  @Option(
      names = {"-o", "--output"},
      defaultValue = "table",
      paramLabel = "FORMAT",
      description = "table, json or yaml (default: ${DEFAULT-VALUE}).")
  OutputFormat output;

  @Option(
      names = "--operator",
      description =
          "Show the operator's replicas instead: members, shards held by each, shards without a"
              + " live holder, and each replica's takeover resync backlog (from its Leases).")
  boolean operator;

  @Option(
      names = "--operator-namespace",
      defaultValue = "versio-system",
      paramLabel = "NAME",
      description = "Where the operator keeps its Leases (default: ${DEFAULT-VALUE}).")
  String operatorNamespace;

  @Spec CommandSpec spec;

  /** One target's row. */
  record Row(
      String target,
      String config,
      String phase,
      String assigned,
      String named,
      List<String> servedBy,
      String handoverStatus,
      String handoverReason,
      String handoverMessage,
      boolean front,
      String serving,
      VersionLifecycle lifecycle,
      StorageMigrationStatus migration,
      List<String> storageCrds) {
    /** The assigned server is not (yet) the one that serves the target. */
    boolean moving() {
      return assigned != null && serving != null && !assigned.equals(serving);
    }

    /**
     * @param crds the CRDs that hold the target's objects: a CRD target itself, an XRD's generated
     *     CRDs
     */
    Row withLifecycle(VersionLifecycle versions, List<String> crds) {
      return new Row(
          target,
          config,
          phase,
          assigned,
          named,
          servedBy,
          handoverStatus,
          handoverReason,
          handoverMessage,
          front,
          serving,
          versions,
          migration,
          crds);
    }
  }

  @Override
  public Integer call() {
    try (var client = cluster.client()) {
      if (operator) {
        return operatorStatus(client);
      }
      var rows = rows(client);
      var out = spec.commandLine().getOut();
      if (output == OutputFormat.TABLE) {
        table(out, rows);
      } else {
        Output.structured(out, json(rows), output == OutputFormat.YAML);
      }
      return 0;
    }
  }

  private int operatorStatus(KubernetesClient client) {
    List<io.fabric8.kubernetes.api.model.coordination.v1.Lease> leases;
    try {
      leases =
          client
              .leases()
              .inNamespace(operatorNamespace)
              .withLabel("versio.dev/lease-group", "versio-operator")
              .list()
              .getItems();
    } catch (KubernetesClientException e) {
      throw new dev.versio.cli.offline.LoadError(
          "cannot list the operator's Leases in namespace "
              + operatorNamespace
              + ": "
              + ClusterErrors.describe(client.getMasterUrl().toString(), e));
    }
    var view = OperatorMembers.of(leases, java.time.Instant.now());
    var out = spec.commandLine().getOut();
    if (output == OutputFormat.TABLE) {
      view.table(out, operatorNamespace);
    } else {
      Output.structured(out, view.json(), output == OutputFormat.YAML);
    }
    return 0;
  }

  private static List<Row> rows(KubernetesClient client) {
    List<ConversionWebhookServer> servers;
    try {
      servers = client.resources(ConversionWebhookServer.class).list().getItems();
    } catch (KubernetesClientException e) {
      throw new dev.versio.cli.offline.LoadError(
          "cannot list ConversionWebhookServers: "
              + ClusterErrors.describe(client.getMasterUrl().toString(), e)
              + " (are Versio's CRDs installed?)");
    }
    var replicas = replicas(client);
    var served = replicas.served();
    var now = java.time.Instant.now();
    var rows = new ArrayList<Row>();
    for (var c : client.resources(CRDConversionConfig.class).list().getItems()) {
      var target = c.getSpec() == null ? null : c.getSpec().targetName();
      var crd =
          target == null
              ? null
              : client.apiextensions().v1().customResourceDefinitions().withName(target).get();
      // read as JSON once: for the endpoint it names and for its versions
      var definition = crd == null ? null : SERIALIZATION.convertValue(crd, JsonNode.class);
      var row =
          row(
              "crd/" + c.getMetadata().getName(),
              target,
              c.getStatus(),
              definition,
              servers,
              served);
      if (definition != null && c.getSpec() != null) {
        var converted = new java.util.HashSet<String>();
        converted.add(c.getSpec().hubVersion);
        c.getSpec().spokes.forEach(spoke -> converted.add(spoke.version));
        row =
            row.withLifecycle(
                VersionLifecycle.of(definition, converted, replicas.use().get(target), now),
                List.of(target));
      }
      rows.add(row);
    }
    try {
      io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext xrdApi = null;
      for (var c : client.resources(XRDConversionConfig.class).list().getItems()) {
        var target = c.getSpec() == null ? null : c.getSpec().targetName();
        Object definition = null;
        if (target != null) {
          try {
            if (xrdApi == null) {
              xrdApi = ClusterXrdApi.context(client);
            }
            definition = client.genericKubernetesResources(xrdApi).withName(target).get();
          } catch (KubernetesClientException e) {
            definition = null; // Crossplane's API is not installed
          }
        }
        var row =
            row(
                "xrd/" + c.getMetadata().getName(),
                target,
                c.getStatus(),
                definition,
                servers,
                served);
        if (definition != null && c.getSpec() != null) {
          // an XRD's versions, with the storedVersions of the CRDs Crossplane generated from it
          var xrd = SERIALIZATION.convertValue(definition, JsonNode.class);
          var read = new java.util.HashMap<String, java.util.Optional<JsonNode>>();
          java.util.function.Function<String, java.util.Optional<JsonNode>> generated =
              name -> read.computeIfAbsent(name, n -> generatedCrd(client, n));
          var view = GeneratedCrds.versionsView(xrd, generated);
          if (view.isPresent()) {
            var converted = new java.util.HashSet<String>();
            converted.add(c.getSpec().hubVersion);
            c.getSpec().spokes.forEach(spoke -> converted.add(spoke.version));
            row =
                row.withLifecycle(
                    VersionLifecycle.of(view.get(), converted, replicas.use().get(target), now),
                    GeneratedCrds.names(xrd));
          }
        }
        rows.add(row);
      }
    } catch (KubernetesClientException e) {
      // no XRDConversionConfig CRD: nothing more to show
    }
    rows.sort(java.util.Comparator.comparing(r -> r.target() == null ? "" : r.target()));
    return rows;
  }

  /**
   * A CRD Crossplane generated from an XRD, as JSON; empty when it is not there or cannot be read
   * (the row then shows no versions rather than every XRD row going missing).
   */
  private static java.util.Optional<JsonNode> generatedCrd(KubernetesClient client, String name) {
    try {
      return java.util.Optional.ofNullable(
              client.apiextensions().v1().customResourceDefinitions().withName(name).get())
          .map(crd -> SERIALIZATION.convertValue(crd, JsonNode.class));
    } catch (KubernetesClientException e) {
      return java.util.Optional.empty();
    }
  }

  private static Row row(
      String config,
      String target,
      ConversionConfigStatus status,
      Object definition,
      List<ConversionWebhookServer> servers,
      Map<String, TreeSet<String>> served) {
    String named = null;
    boolean front = false;
    if (definition != null) {
      var json =
          definition instanceof JsonNode node
              ? node
              : SERIALIZATION.convertValue(definition, JsonNode.class);
      for (var server : servers) {
        if (EndpointMatch.names(server, json)) {
          named = server.getMetadata().getName();
        }
      }
      var frontNamespace =
          json.path("spec")
              .path("conversion")
              .path("webhook")
              .path("clientConfig")
              .path("service")
              .path("namespace")
              .asText("");
      front = target != null && EndpointMatch.namesFront(json, target, servers, frontNamespace);
    }
    // behind the front the CRD names no server: the config's status says who serves it
    var serving =
        status != null && status.servedBy != null && (front || named == null)
            ? status.servedBy
            : named;
    var servedBy = new ArrayList<String>();
    served.forEach(
        (replica, targets) -> {
          if (target != null && targets.contains(target)) {
            servedBy.add(replica);
          }
        });
    var handover =
        status == null || status.conditions == null
            ? null
            : status.conditions.stream()
                .filter(c -> "HandoverReady".equals(c.getType()))
                .findFirst()
                .orElse(null);
    return new Row(
        target,
        config,
        status == null ? null : status.phase,
        status == null ? null : status.assignedWebhookServer,
        named,
        servedBy,
        handover == null ? null : handover.getStatus(),
        handover == null ? null : handover.getReason(),
        handover == null ? null : handover.getMessage(),
        front,
        serving,
        null,
        status == null ? null : status.storageMigration,
        target == null ? List.of() : List.of(target));
  }

  private static final io.fabric8.kubernetes.client.utils.KubernetesSerialization SERIALIZATION =
      new io.fabric8.kubernetes.client.utils.KubernetesSerialization();

  /**
   * What the served-target Leases say: per replica ({@code server/pod}) the targets it serves, and
   * per target what its replicas saw of reviews per version.
   */
  private record Replicas(Map<String, TreeSet<String>> served, Map<String, VersionUse> use) {}

  private static Replicas replicas(KubernetesClient client) {
    var served = servedByReplica(client);
    var seen = new TreeMap<String, VersionsSeenCodec.Seen>();
    served
        .reports()
        .forEach(
            (replica, annotations) ->
                VersionsSeenCodec.decode(annotations).ifPresent(s -> seen.put(replica, s)));
    var reports = new TreeMap<String, List<VersionsSeenCodec.Seen>>();
    var serving = new TreeMap<String, Integer>();
    served
        .targets()
        .forEach(
            (replica, targets) -> {
              targets.forEach(t -> serving.merge(t, 1, Integer::sum));
              var report = seen.get(replica);
              if (report != null) {
                targets.forEach(
                    t -> reports.computeIfAbsent(t, k -> new ArrayList<>()).add(report));
              }
            });
    var use = new TreeMap<String, VersionUse>();
    reports.forEach(
        (target, of) ->
            VersionUse.of(target, of, serving.getOrDefault(target, 0))
                .ifPresent(u -> use.put(target, u)));
    return new Replicas(served.targets(), use);
  }

  /**
   * Per replica ({@code server/pod}): the targets its Leases list, and its part 0's annotations.
   */
  private record LeaseView(
      Map<String, TreeSet<String>> targets, Map<String, Map<String, String>> reports) {}

  /** Per replica ({@code server/pod}), the targets its served-target Leases list. */
  private static LeaseView servedByReplica(KubernetesClient client) {
    var parts = new TreeMap<String, List<Map<String, String>>>();
    try {
      for (var lease :
          client
              .leases()
              .inAnyNamespace()
              .withLabel(ServedTargetsCodec.SERVER_LABEL)
              .list()
              .getItems()) {
        var labels = lease.getMetadata().getLabels();
        var key =
            labels.get(ServedTargetsCodec.SERVER_LABEL)
                + "/"
                + labels.getOrDefault(ServedTargetsCodec.REPLICA_LABEL, "?");
        parts
            .computeIfAbsent(key, k -> new ArrayList<>())
            .add(
                lease.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : lease.getMetadata().getAnnotations());
      }
    } catch (KubernetesClientException e) {
      // may not list Leases: show no replicas rather than fail
      return new LeaseView(Map.of(), Map.of());
    }
    var out = new TreeMap<String, TreeSet<String>>();
    var reports = new TreeMap<String, Map<String, String>>();
    parts.forEach(
        (replica, annotations) -> {
          if (ServedTargetsCodec.decode(annotations)
              instanceof ServedTargetsCodec.Decoded.Readable readable) {
            out.put(replica, new TreeSet<>(readable.targets()));
          }
          annotations.stream()
              .filter(a -> a.containsKey(VersionsSeenCodec.SINCE))
              .findFirst()
              .ifPresent(a -> reports.put(replica, a));
        });
    return new LeaseView(out, reports);
  }

  private static JsonNode json(List<Row> rows) {
    var o = EngineJson.nodes().objectNode();
    var targets = o.putArray("targets");
    for (var r : rows) {
      var t = targets.addObject();
      t.put("target", r.target());
      t.put("config", r.config());
      t.put("phase", r.phase());
      t.put("assignedServer", r.assigned());
      t.put("namedServer", r.named());
      t.put("front", r.front());
      t.put("servingServer", r.serving());
      r.servedBy().forEach(t.putArray("servedBy")::add);
      t.put("moving", r.moving());
      var h = t.putObject("handover");
      h.put("status", r.handoverStatus());
      h.put("reason", r.handoverReason());
      h.put("message", r.handoverMessage());
      var versions = t.putArray("versions");
      var since = r.lifecycle() == null ? null : r.lifecycle().reviewsSince();
      t.put("reviewsSeenSince", since == null ? null : since.toString());
      var next = t.putObject("nextStep");
      next.putNull("step");
      next.putNull("version");
      next.putNull("message");
      if (r.lifecycle() != null) {
        for (var v : r.lifecycle().versions()) {
          var j = versions.addObject();
          j.put("name", v.name());
          j.put("served", v.served());
          j.put("storage", v.storage());
          j.put("stored", v.stored());
          j.put("deprecated", v.deprecated());
          j.put("converted", v.converted());
          j.put("lastReviewedAt", v.lastReviewed() == null ? null : v.lastReviewed().toString());
        }
        r.lifecycle()
            .next()
            .ifPresent(
                step -> {
                  next.put("step", stepName(step));
                  next.put("version", step.version());
                  next.put("message", step.describe(r.storageCrds()));
                });
      }
      var migration = r.migration();
      if (migration == null) {
        t.putNull("storageMigration");
      } else {
        var m = t.putObject("storageMigration");
        m.put("phase", migration.phase);
        m.put("storageVersion", migration.storageVersion);
        m.put("handled", migration.handled);
        m.put("total", migration.total);
        m.put("failed", migration.failed);
        m.put("resumed", migration.resumed);
        m.put("startedAt", migration.startedAt);
        m.put("finishedAt", migration.finishedAt);
        m.put("message", migration.message);
      }
    }
    return o;
  }

  private static String stepName(VersionLifecycle.Step step) {
    return switch (step) {
      case VersionLifecycle.Step.Restore ignored -> "Restore";
      case VersionLifecycle.Step.Remove ignored -> "Remove";
      case VersionLifecycle.Step.StopServing ignored -> "StopServing";
    };
  }

  private static void table(java.io.PrintWriter out, List<Row> rows) {
    if (rows.isEmpty()) {
      out.println("no CRDConversionConfig or XRDConversionConfig in the cluster");
      return;
    }
    out.printf(
        "%-40s %-10s %-18s %-18s %s%n", "TARGET", "PHASE", "ASSIGNED", "SERVED BY", "REPLICAS");
    for (var r : rows) {
      out.printf(
          "%-40s %-10s %-18s %-18s %d%n",
          fit(r.target(), 40),
          fit(r.phase(), 10),
          fit(r.assigned(), 18),
          fit(r.serving() == null ? null : (r.front() ? "*" : "") + r.serving(), 18),
          r.servedBy().size());
      if (r.moving()) {
        Output.wrap(
            out,
            "    moving: "
                + r.serving()
                + " -> "
                + r.assigned()
                + (r.handoverReason() == null ? "" : " (" + r.handoverReason() + ")")
                + (r.handoverMessage() == null ? "" : ": " + r.handoverMessage()),
            "      ");
      }
      if (r.lifecycle() != null && r.lifecycle().next().isPresent()) {
        Output.wrap(
            out,
            "    next version step: " + r.lifecycle().next().get().describe(r.storageCrds()),
            "      ");
      }
      if (r.migration() != null) {
        Output.wrap(out, "    storage migration: " + migrationLine(r.migration()), "      ");
      }
    }
    Output.wrap(
        out,
        "SERVED BY: the server whose replicas convert the target now (* behind the shared front,"
            + " where the CRD names no server); REPLICAS: webhook-server replicas whose"
            + " served-target Leases list the target (as published; the operator judges which are"
            + " live).",
        "  ");
  }

  /**
   * A storage migration in one line: a progress bar while it runs (of the apiserver's estimate of
   * the total), else how it ended.
   */
  static String migrationLine(StorageMigrationStatus m) {
    long handled = m.handled == null ? 0 : m.handled;
    var phase = m.phase == null ? "?" : m.phase;
    if ("Running".equals(phase) || "Pruning".equals(phase)) {
      long total = m.total == null ? 0 : Math.max(m.total, handled);
      int width = 20;
      int filled = total == 0 ? 0 : (int) (handled * width / total);
      return phase
          + " ["
          + "#".repeat(filled)
          + ".".repeat(width - filled)
          + "] "
          + handled
          + "/"
          + (total == 0 ? "?" : total)
          + (total == 0 ? "" : " (" + handled * 100 / total + " %)")
          + " at "
          + m.storageVersion
          + (m.resumed != null && m.resumed > 0 ? ", continued " + m.resumed + "×" : "");
    }
    return phase + (m.message == null ? "" : ": " + m.message);
  }

  private static String fit(String s, int width) {
    if (s == null) {
      return "-";
    }
    return s.length() <= width ? s : s.substring(0, Math.max(1, width - 1)) + "…";
  }
}
