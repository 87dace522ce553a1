package dev.versio.cli.live;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code versio status --operator} shows, read from the operator's Leases: each member (live
 * or not, how long since it renewed, shards held, resync backlog it published), and the shards
 * without a live holder. Pure: the Leases and the time come in.
 */
record OperatorMembers(List<Member> members, int shardCount, List<Integer> unowned) {
  private static final String GROUP = "versio-operator";
  private static final String MEMBER = GROUP + "-member-";
  private static final String SHARD = GROUP + "-shard-";

  /** One replica as its member Lease shows it. */
  record Member(
      String id,
      boolean live,
      Duration sinceRenewal,
      int shards,
      String resyncBacklog,
      String buildVersion,
      boolean fenced) {}

  static OperatorMembers of(List<Lease> leases, Instant now) {
    var members = new TreeMap<String, Member>();
    var holders = new TreeMap<Integer, String>();
    int shardCount = 0;
    for (var lease : leases) {
      var name = lease.getMetadata().getName();
      var spec = lease.getSpec();
      if (name.startsWith(SHARD)) {
        holders.put(
            Integer.parseInt(name.substring(SHARD.length())),
            spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity());
      }
    }
    for (var lease : leases) {
      var name = lease.getMetadata().getName();
      if (!name.startsWith(MEMBER)) {
        continue;
      }
      var spec = lease.getSpec();
      var id =
          spec.getHolderIdentity() == null
              ? name.substring(MEMBER.length())
              : spec.getHolderIdentity();
      ZonedDateTime renewed = spec.getRenewTime();
      var since = renewed == null ? null : Duration.between(renewed.toInstant(), now);
      int duration = spec.getLeaseDurationSeconds() == null ? 15 : spec.getLeaseDurationSeconds();
      boolean fenced = !annotation(lease, "versio.dev/fenced-by").isEmpty();
      boolean live = !fenced && since != null && since.compareTo(Duration.ofSeconds(duration)) < 0;
      shardCount = Math.max(shardCount, parse(annotation(lease, "versio.dev/shard-count")));
      members.put(
          id,
          new Member(
              id,
              live,
              since,
              (int) holders.values().stream().filter(id::equals).count(),
              annotation(lease, "versio.dev/resync-backlog"),
              annotation(lease, "versio.dev/build-version"),
              fenced));
    }
    var unowned = new ArrayList<Integer>();
    for (int shard = 0; shard < shardCount; shard++) {
      var holder = holders.getOrDefault(shard, "");
      var member = members.get(holder);
      if (member == null || !member.live()) {
        unowned.add(shard);
      }
    }
    return new OperatorMembers(List.copyOf(members.values()), shardCount, List.copyOf(unowned));
  }

  JsonNode json() {
    var o = EngineJson.nodes().objectNode();
    o.put("shards", shardCount);
    var list = o.putArray("members");
    for (var m : members) {
      var j = list.addObject();
      j.put("id", m.id());
      j.put("live", m.live());
      if (m.sinceRenewal() != null) {
        j.put("secondsSinceRenewal", m.sinceRenewal().toMillis() / 1000.0);
      }
      j.put("shardsHeld", m.shards());
      j.put("resyncBacklog", m.resyncBacklog().isEmpty() ? null : m.resyncBacklog());
      j.put("buildVersion", m.buildVersion());
      j.put("fenced", m.fenced());
    }
    unowned.forEach(o.putArray("unownedShards")::add);
    return o;
  }

  void table(java.io.PrintWriter out, String namespace) {
    if (members.isEmpty()) {
      out.println(
          "no operator member Leases in namespace "
              + namespace
              + " (is the operator running there? pass --operator-namespace)");
      return;
    }
    out.printf(
        "%-36s %-5s %-9s %-7s %-15s %s%n",
        "MEMBER", "LIVE", "RENEWED", "SHARDS", "RESYNC BACKLOG", "BUILD");
    for (var m : members) {
      out.printf(
          "%-36s %-5s %-9s %-7d %-15s %s%n",
          m.id().length() > 36 ? m.id().substring(0, 35) + "…" : m.id(),
          m.fenced() ? "fenced" : m.live() ? "yes" : "no",
          m.sinceRenewal() == null ? "-" : m.sinceRenewal().toSeconds() + "s ago",
          m.shards(),
          m.resyncBacklog().isEmpty() ? "-" : m.resyncBacklog(),
          m.buildVersion().isEmpty() ? "-" : m.buildVersion());
    }
    out.printf(
        "%d shards, %d without a live holder%s%n",
        shardCount,
        unowned.size(),
        unowned.isEmpty()
            ? ""
            : ": " + (unowned.size() > 12 ? unowned.subList(0, 12) + " …" : unowned.toString()));
  }

  private static String annotation(Lease lease, String key) {
    Map<String, String> annotations = lease.getMetadata().getAnnotations();
    var value = annotations == null ? null : annotations.get(key);
    return value == null ? "" : value;
  }

  private static int parse(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
