package dev.versio.api.assign;

import java.nio.charset.StandardCharsets;
import java.util.Collection;
import java.util.List;

/**
 * The one function that decides which ConversionWebhookServer serves a target. The operator, the
 * admission webhook and every webhook-server replica call it independently on the same inputs and
 * agree, so nothing is pushed to pods.
 *
 * <p>Precedence: (1) an explicit {@code webhookServerRef}, never moved by sharding; (2) if any
 * server is in the sharding pool, weighted rendezvous hashing on the <em>target</em> name (so
 * renaming a config moves nothing); (3) the single default server.
 *
 * <p>Rendezvous score of server {@code s} for target {@code t} (pinned by golden vectors): {@code h
 * = splitmix64(fnv1a64(utf8(s) + 0x00 + utf8(t)))}, {@code u = ((h >>> 11) + 0.5) / 2^53} in (0,
 * 1), {@code score = -weight / ln(u)}; the highest score wins, ties go to the smaller name. Adding
 * a server moves only the targets it now wins; no target moves between existing servers.
 */
public final class AssignmentResolver {
  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;

  private AssignmentResolver() {}

  /**
   * @param explicitServer the config's {@code webhookServerRef.name}, or null
   * @param target the CRD/XRD name the config converts
   * @param servers every ConversionWebhookServer in the cluster
   */
  public static Assignment resolve(
      String explicitServer, String target, Collection<ServerView> servers) {
    if (explicitServer != null && !explicitServer.isBlank()) {
      return servers.stream().anyMatch(s -> s.name().equals(explicitServer))
          ? new Assignment.Assigned(explicitServer, Assignment.Route.EXPLICIT)
          : new Assignment.Unresolved(
              "webhookServerRef '"
                  + explicitServer
                  + "' does not match any ConversionWebhookServer; create it or fix the reference");
    }
    var pool = servers.stream().filter(ServerView::inPool).toList();
    if (!pool.isEmpty()) {
      ServerView best = null;
      double bestScore = Double.NEGATIVE_INFINITY;
      for (var server : pool) {
        double score = score(server.name(), target, server.weight());
        if (score > bestScore || (score == bestScore && server.name().compareTo(best.name()) < 0)) {
          best = server;
          bestScore = score;
        }
      }
      return new Assignment.Assigned(best.name(), Assignment.Route.SHARDED);
    }
    List<String> defaults =
        servers.stream().filter(ServerView::isDefault).map(ServerView::name).sorted().toList();
    return switch (defaults.size()) {
      case 0 ->
          new Assignment.Unresolved(
              "no ConversionWebhookServer is marked default and the config has no webhookServerRef;"
                  + " set spec.default: true on one server or reference one");
      case 1 -> new Assignment.Assigned(defaults.getFirst(), Assignment.Route.DEFAULT);
      default ->
          new Assignment.Unresolved(
              "several ConversionWebhookServers are marked default ("
                  + String.join(", ", defaults)
                  + "); keep spec.default: true on exactly one");
    };
  }

  /** The rendezvous score of {@code server} for {@code target} (see the class documentation). */
  static double score(String server, String target, double weight) {
    long h = FNV_OFFSET;
    for (byte b : server.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    h = (h ^ 0) * FNV_PRIME;
    for (byte b : target.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ (b & 0xff)) * FNV_PRIME;
    }
    h = splitmix64(h);
    double u = ((h >>> 11) + 0.5) / 0x1p53;
    return -weight / Math.log(u);
  }

  private static long splitmix64(long z) {
    z += 0x9e3779b97f4a7c15L;
    z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
    z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
    return z ^ (z >>> 31);
  }
}
