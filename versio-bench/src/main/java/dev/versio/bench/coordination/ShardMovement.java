package dev.versio.bench.coordination;

import dev.versio.coordination.shard.RendezvousAssignment;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Shard movement and balance of rendezvous assignment over random replica ids (pod-name-like), for
 * several shard counts: the fraction of shards moved on each scale-out N→N+1 relative to the ideal
 * 1/(N+1), how often one event exceeds 1.35 × ideal, and max/mean shards per member.
 *
 * <p>Usage: {@code hack/bench.sh --shard-movement [trials] [shardCounts...]}
 */
public final class ShardMovement {
  private ShardMovement() {}

  public static void main(String[] args) {
    int trials = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
    var shardCounts = new ArrayList<Integer>();
    for (int i = 1; i < args.length; i++) {
      shardCounts.add(Integer.parseInt(args[i]));
    }
    if (shardCounts.isEmpty()) {
      shardCounts.addAll(List.of(64, 256, 1024));
    }
    System.out.printf(
        Locale.ROOT,
        "%6s %8s %13s %12s %14s %15s %16s%n",
        "S",
        "N->N+1",
        "moved/ideal",
        "worst event",
        "events >1.35",
        "max/mean mean",
        "max/mean worst");
    for (int shards : shardCounts) {
      var random = new SplittableRandom(shards);
      for (int n : new int[] {2, 3, 4, 5, 8, 10, 16}) {
        double ratioSum = 0;
        double ratioMax = 0;
        double balanceSum = 0;
        double balanceMax = 0;
        int over = 0;
        for (int t = 0; t < trials; t++) {
          var members = new ArrayList<String>();
          for (int i = 0; i < n; i++) {
            members.add(podName(random));
          }
          var before = RendezvousAssignment.assign(members, shards);
          var counts = new HashMap<String, Integer>();
          before.values().forEach(owner -> counts.merge(owner, 1, Integer::sum));
          double balance = Collections.max(counts.values()) / (shards / (double) n);
          balanceSum += balance;
          balanceMax = Math.max(balanceMax, balance);
          var grown = new ArrayList<>(members);
          grown.add(podName(random));
          var after = RendezvousAssignment.assign(grown, shards);
          long moved =
              before.keySet().stream().filter(s -> !before.get(s).equals(after.get(s))).count();
          double ratio = moved / (shards / (double) (n + 1));
          ratioSum += ratio;
          ratioMax = Math.max(ratioMax, ratio);
          over += ratio > 1.35 ? 1 : 0;
        }
        System.out.printf(
            Locale.ROOT,
            "%6d %8s %13.2f %12.2f %13.1f%% %15.2f %16.2f%n",
            shards,
            n + "->" + (n + 1),
            ratioSum / trials,
            ratioMax,
            100.0 * over / trials,
            balanceSum / trials,
            balanceMax);
      }
    }
  }

  private static String podName(SplittableRandom random) {
    return "versio-operator-" + Long.toString(random.nextLong() & 0xffffffffL, 36);
  }
}
