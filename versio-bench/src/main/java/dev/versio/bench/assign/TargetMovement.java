package dev.versio.bench.assign;

import dev.versio.api.assign.Assignment;
import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import java.util.ArrayList;
import java.util.List;

/**
 * How many targets move when a server joins a sharding pool of N (equal weights), against the ideal
 * 1/(N+1), and whether any moves between servers that stayed. Run: {@code hack/bench.sh
 * --target-movement 10000 2 8} (targets, smallest and largest N).
 */
public final class TargetMovement {
  private TargetMovement() {}

  public static void main(String[] args) {
    int targets = Integer.parseInt(args[0]);
    int from = Integer.parseInt(args[1]);
    int to = Integer.parseInt(args[2]);
    var names = new ArrayList<String>();
    for (int i = 0; i < targets; i++) {
      names.add("widgets-" + i + ".team-" + (i % 97) + ".example.com");
    }
    System.out.printf(
        "%4s %8s %10s %10s %10s %14s%n", "N", "targets", "moved", "share", "ideal", "between old");
    for (int n = from; n <= to; n++) {
      var before = pool(n);
      var after = pool(n + 1);
      int moved = 0;
      int betweenOld = 0;
      for (var target : names) {
        var a = server(AssignmentResolver.resolve(null, target, before));
        var b = server(AssignmentResolver.resolve(null, target, after));
        if (!a.equals(b)) {
          moved++;
          if (!b.equals("server-" + n)) {
            betweenOld++;
          }
        }
      }
      System.out.printf(
          "%4d %8d %10d %9.2f%% %9.2f%% %14d%n",
          n, targets, moved, 100.0 * moved / targets, 100.0 / (n + 1), betweenOld);
    }
  }

  private static List<ServerView> pool(int n) {
    var out = new ArrayList<ServerView>();
    for (int i = 0; i < n; i++) {
      out.add(new ServerView("server-" + i, i == 0, true, 1.0));
    }
    return out;
  }

  private static String server(Assignment assignment) {
    return ((Assignment.Assigned) assignment).server();
  }
}
