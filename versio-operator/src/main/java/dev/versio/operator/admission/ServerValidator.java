package dev.versio.operator.admission;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.api.config.ConversionConfigSpec;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import dev.versio.api.server.EndpointMatch;
import dev.versio.operator.server.ServerSpecPolicy;
import dev.versio.operator.server.children.HeapFromMemoryLimit;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Admission rules for ConversionWebhookServer. CREATE and UPDATE: the spec keeps to the operator's
 * {@link ServerSpecPolicy} (image, ServiceAccount, namespace, volumes); {@code extraArgs} names no
 * managed flag; URL mode has a CA bundle; a sharding weight is positive; at most one server is
 * default; while a sharding pool exists the default server is in it. DELETE: refused while configs
 * are served by the server, unless it carries {@value #FORCE_DELETE_ANNOTATION}{@code : "true"}.
 */
public final class ServerValidator {
  /** Lets a server be deleted although configs still resolve to it. */
  public static final String FORCE_DELETE_ANNOTATION = "versio.dev/allow-force-delete";

  /** How many config names a delete denial spells out. */
  static final int MAX_NAMED = 10;

  private final ServerSpecPolicy policy;

  /** Validates servers against {@code policy}: what the operator may run for their authors. */
  public ServerValidator(ServerSpecPolicy policy) {
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  /**
   * Validates {@code server} as it would be stored by a CREATE or UPDATE.
   *
   * @throws ClusterView.Unavailable when a read the rules need fails (the caller denies)
   */
  public Verdict validateWrite(ConversionWebhookServer server, ClusterView cluster) {
    var name = server.getMetadata().getName();
    var self = ref(name);
    var spec = server.getSpec();
    if (spec == null) {
      return Verdict.allow();
    }
    var refusals = policy.refusals(server);
    if (!refusals.isEmpty()) {
      return Verdict.deny(self + ": " + String.join("; ", refusals));
    }
    if (spec.extraArgs != null) {
      for (int i = 0; i < spec.extraArgs.size(); i++) {
        var arg = spec.extraArgs.get(i);
        var flag = ManagedFlags.named(arg);
        if (flag.isPresent()) {
          return Verdict.deny(
              self
                  + ": spec.extraArgs["
                  + i
                  + "] '"
                  + arg
                  + "' sets "
                  + flag.get()
                  + ", which the operator manages (managed flags: "
                  + String.join(", ", ManagedFlags.FLAGS)
                  + "); remove it and use the matching spec field instead");
        }
      }
    }
    var warnings = new ArrayList<String>();
    smallHeapWarning(self, spec).ifPresent(warnings::add);
    var url = spec.url == null ? "" : spec.url.strip();
    var caBundle = spec.caBundle == null ? "" : spec.caBundle.strip();
    if (!url.isEmpty() && caBundle.isEmpty()) {
      return Verdict.deny(
          self
              + ": spec.url is set but spec.caBundle is empty; URL mode needs the CA that signed"
              + " the server's certificate so the apiserver can verify it: set spec.caBundle to"
              + " the base64 of that CA's PEM");
    }
    if (!caBundle.isEmpty() && !isBase64Pem(caBundle)) {
      return Verdict.deny(
          self
              + ": spec.caBundle is not the base64 of a PEM certificate; set it to the output of"
              + " 'base64 -w0 ca.crt'");
    }
    var sharding = spec.sharding;
    if (sharding != null && sharding.weight != null) {
      double weight = sharding.weight;
      if (!(weight > 0) || Double.isInfinite(weight)) {
        return Verdict.deny(
            self
                + ": spec.sharding.weight must be a positive number (the server's relative share"
                + " of the pool's targets), found "
                + sharding.weight
                + "; set a value above 0 or remove it for the default of 1");
      }
    }

    var servers = cluster.servers();
    if (server.isDefaultServer()) {
      var others =
          servers.stream()
              .filter(ConversionWebhookServer::isDefaultServer)
              .map(s -> s.getMetadata().getName())
              .filter(n -> !n.equals(name))
              .sorted()
              .toList();
      if (!others.isEmpty()) {
        return Verdict.deny(
            self
                + ": spec.default is true, but "
                + String.join(", ", others.stream().map(ServerValidator::ref).toList())
                + (others.size() == 1 ? " is" : " are")
                + " already the default; only one server may be default at a time: set"
                + " spec.default: false on "
                + ref(others.getFirst())
                + " first, or leave "
                + name
                + " non-default");
      }
    }
    var after =
        Stream.concat(
                servers.stream().filter(s -> !s.getMetadata().getName().equals(name)),
                Stream.of(server))
            .toList();
    var pool =
        after.stream()
            .filter(ConversionWebhookServer::inShardingPool)
            .map(s -> s.getMetadata().getName())
            .sorted()
            .toList();
    if (!pool.isEmpty()) {
      var outside =
          after.stream()
              .filter(s -> s.isDefaultServer() && !s.inShardingPool())
              .map(s -> s.getMetadata().getName())
              .sorted()
              .toList();
      if (!outside.isEmpty()) {
        var def = outside.getFirst();
        var poolText = "the sharding pool (" + String.join(", ", pool) + ")";
        if (def.equals(name)) {
          return Verdict.deny(
              self
                  + ": it is the default server but not in "
                  + poolText
                  + "; while a pool exists the default must be a member: add spec.sharding: {}"
                  + " to "
                  + name
                  + " (roll-outs enable sharding on the default first: a pool of one moves"
                  + " nothing; then add the others)");
        }
        return Verdict.deny(
            self
                + ": spec.sharding would make "
                + poolText
                + " exist while the default server "
                + ref(def)
                + " is not a member; while a pool exists the default must be in it: enable"
                + " sharding on "
                + def
                + " first (spec.sharding: {} — a pool of one moves nothing), then add "
                + name);
      }
    }
    return Verdict.allow(warnings);
  }

  /** Smallest memory limit whose heap holds 1,000 targets with room to run (docs/capacity.md). */
  static final long RECOMMENDED_LIMIT_MIB = 384;

  /**
   * A warning when the memory limit leaves the replicas a small heap: about 100 MiB is live at
   * 1,000 targets and a collector wants twice that (docs/capacity.md).
   */
  private static Optional<String> smallHeapWarning(String self, ConversionWebhookServerSpec spec) {
    var limit = HeapFromMemoryLimit.memoryLimit(spec.resources);
    if (limit == null || HeapFromMemoryLimit.userSetsHeap(spec.extraEnv)) {
      return Optional.empty();
    }
    var limitMiB = limit.divide(BigDecimal.valueOf(1L << 20), 0, RoundingMode.DOWN);
    if (limitMiB.longValue() >= RECOMMENDED_LIMIT_MIB) {
      return Optional.empty();
    }
    return Optional.of(
        self
            + ": spec.resources.limits.memory ("
            + limitMiB
            + " MiB) leaves the replicas a "
            + HeapFromMemoryLimit.heapMiB(limit)
            + " MiB heap (the JVM itself needs about 192 MiB beside it); a replica holds about 100"
            + " MiB at 1,000 targets and needs twice that to run well: give it "
            + RECOMMENDED_LIMIT_MIB
            + "Mi or more");
  }

  /**
   * Validates deleting {@code live} (the stored object, the admission request's {@code oldObject}).
   *
   * @throws ClusterView.Unavailable when a read the rule needs fails (the caller denies)
   */
  public Verdict validateDelete(ConversionWebhookServer live, ClusterView cluster) {
    var name = live.getMetadata().getName();
    var self = ref(name);
    var annotations = live.getMetadata().getAnnotations();
    if (annotations != null && "true".equals(annotations.get(FORCE_DELETE_ANNOTATION))) {
      return Verdict.allow(
          List.of(
              self
                  + ": deleted with "
                  + FORCE_DELETE_ANNOTATION
                  + "=true; configs that it served stay unconverted until another server takes"
                  + " them"));
    }
    var servers = cluster.servers();
    var views = new ArrayList<ServerView>();
    for (var s : servers) {
      try {
        views.add(ServerView.of(s));
      } catch (IllegalArgumentException e) {
        return Verdict.deny(
            self
                + ": cannot tell which configs it serves: "
                + e.getMessage()
                + "; fix that server's spec.sharding.weight, or annotate "
                + name
                + " with "
                + FORCE_DELETE_ANNOTATION
                + "=true to delete it anyway");
      }
    }
    var served = new ArrayList<String>();
    for (var c : cluster.crdConfigs()) {
      if (servedBy(c.getSpec(), name, views)) {
        served.add(AdmittedConfigKind.CRD.ref(c.getMetadata().getName()));
      }
    }
    for (var c : cluster.xrdConfigs()) {
      if (servedBy(c.getSpec(), name, views)) {
        served.add(AdmittedConfigKind.XRD.ref(c.getMetadata().getName()));
      }
    }
    if (served.isEmpty()) {
      var naming = targetsNaming(live, cluster);
      if (naming.isEmpty()) {
        return Verdict.allow();
      }
      return Verdict.deny(
          self
              + ": cannot be deleted while "
              + naming.size()
              + " target(s) still send their conversions to it (a move away is not complete yet):"
              + " "
              + String.join(", ", naming.subList(0, Math.min(MAX_NAMED, naming.size())))
              + (naming.size() > MAX_NAMED ? " and " + (naming.size() - MAX_NAMED) + " more" : "")
              + "; wait until their configs are Applied elsewhere, or annotate the server to"
              + " delete it anyway: kubectl annotate conversionwebhookserver "
              + name
              + " "
              + FORCE_DELETE_ANNOTATION
              + "=true");
    }
    served.sort(null);
    var named = new ArrayList<>(served.subList(0, Math.min(MAX_NAMED, served.size())));
    if (served.size() > MAX_NAMED) {
      named.add("and " + (served.size() - MAX_NAMED) + " more");
    }
    var isDefault = live.isDefaultServer();
    return Verdict.deny(
        self
            + ": cannot be deleted while "
            + served.size()
            + " config(s) are served by it"
            + (isDefault
                ? " (it is the DEFAULT server: every config without spec.webhookServerRef falls"
                    + " back to it when there is no sharding pool)"
                : "")
            + ": "
            + String.join(", ", named)
            + "; move them first ("
            + (isDefault ? "mark another server default, " : "")
            + (live.inShardingPool()
                ? "take it out of the sharding pool (remove spec.sharding) and wait until its"
                    + " targets are Applied elsewhere, "
                : "")
            + "point spec.webhookServerRef elsewhere, or delete the configs), or annotate the"
            + " server to delete it anyway: kubectl annotate conversionwebhookserver "
            + name
            + " "
            + FORCE_DELETE_ANNOTATION
            + "=true");
  }

  /** The targets of any config whose live spec.conversion still names {@code server}. */
  private static List<String> targetsNaming(ConversionWebhookServer server, ClusterView cluster) {
    return EndpointMatch.targetsNaming(
        server, cluster.crdConfigs(), cluster::crd, cluster.xrdConfigs(), cluster::xrd);
  }

  private static boolean servedBy(
      ConversionConfigSpec spec, String server, List<ServerView> views) {
    if (spec == null) {
      return false;
    }
    var explicit = spec.webhookServerRef == null ? null : spec.webhookServerRef.name;
    var target = Objects.requireNonNullElse(spec.targetName(), "");
    return AssignmentResolver.resolve(explicit, target, views).isTo(server);
  }

  private static boolean isBase64Pem(String value) {
    try {
      var pem = new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII);
      return pem.contains("-----BEGIN CERTIFICATE-----");
    } catch (IllegalArgumentException e) {
      return false;
    }
  }

  static String ref(String name) {
    return "ConversionWebhookServer/" + name;
  }
}
