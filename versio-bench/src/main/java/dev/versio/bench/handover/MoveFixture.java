package dev.versio.bench.handover;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The fixed names of the move harness and the placement they must get. The names never change, so
 * the sharded placement is known in advance and a change of the hash function shows up as a
 * different placement.
 */
final class MoveFixture {
  static final String GROUP = "moves.example.com";
  static final String ALPHA = "alpha";
  static final String BETA = "beta";

  /** Plural names of the Widget types; each is one target with one config. */
  static final List<String> PLURALS =
      List.of("anchors", "bolts", "cogs", "dials", "gears", "hinges", "levers", "nozzles");

  private MoveFixture() {}

  static String target(String plural) {
    return plural + "." + GROUP;
  }

  static String config(String plural) {
    return "move-" + plural;
  }

  static String kind(String plural) {
    var singular = plural.substring(0, plural.length() - 1);
    return Character.toUpperCase(singular.charAt(0)) + singular.substring(1);
  }

  static List<WidgetTraffic.WidgetType> widgetTypes() {
    return PLURALS.stream().map(p -> new WidgetTraffic.WidgetType(GROUP, p, kind(p))).toList();
  }

  /**
   * What the harness has asked for: which servers exist, which are in the pool with what weight,
   * and which configs are pinned.
   *
   * @param betaExists whether the server {@code beta} exists (alpha always does, and is default)
   */
  record Intent(
      boolean alphaInPool,
      boolean betaExists,
      boolean betaInPool,
      double betaWeight,
      Map<String, String> pins) {
    Intent {
      pins = Map.copyOf(pins);
    }

    static Intent initial() {
      return new Intent(false, true, false, 1, Map.of());
    }

    Intent withAlphaInPool(boolean on) {
      return new Intent(on, betaExists, betaInPool, betaWeight, pins);
    }

    Intent withBeta(boolean exists, boolean inPool, double weight) {
      return new Intent(alphaInPool, exists, inPool, weight, pins);
    }

    Intent withPin(String plural, String server) {
      var next = new LinkedHashMap<>(pins);
      if (server == null) {
        next.remove(plural);
      } else {
        next.put(plural, server);
      }
      return new Intent(alphaInPool, betaExists, betaInPool, betaWeight, next);
    }

    /** The server each config must end up on, by plural, computed by the shared resolver. */
    Map<String, String> placement() {
      var views = new ArrayList<ServerView>();
      views.add(new ServerView(ALPHA, true, alphaInPool, 1));
      if (betaExists) {
        views.add(new ServerView(BETA, false, betaInPool, betaWeight));
      }
      var out = new TreeMap<String, String>();
      for (var plural : PLURALS) {
        var assignment = AssignmentResolver.resolve(pins.get(plural), target(plural), views);
        if (!(assignment instanceof dev.versio.api.assign.Assignment.Assigned assigned)) {
          throw new IllegalStateException(plural + " does not resolve under " + this);
        }
        out.put(plural, assigned.server());
      }
      return out;
    }
  }
}
