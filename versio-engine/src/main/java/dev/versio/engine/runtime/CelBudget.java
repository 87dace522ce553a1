package dev.versio.engine.runtime;

import dev.cel.common.ast.CelExpr;
import dev.cel.runtime.CelEvaluationListener;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The budget of one CEL evaluation, charged after every node: a number of steps, and a size — the
 * elements and characters of every list, map and string a node produced, counted as JSON would hold
 * them. Steps alone let {@code items.map(x, items)} over a 10 KB object build millions of nodes in
 * a few thousand steps; the size catches it after a few hundred iterations. Once spent, every later
 * node fails again, so an error swallowed by {@code ||} or a macro cannot revive the evaluation.
 * One instance per evaluation.
 */
final class CelBudget implements CelEvaluationListener {
  private final long stepLimit;
  private final long sizeLimit;
  private long steps;
  private long size;
  private String exceeded;

  /** Sizes of lists and maps already charged, by identity: shared values are measured once. */
  private final IdentityHashMap<Object, Long> measured = new IdentityHashMap<>();

  CelBudget(long stepLimit, long sizeLimit) {
    this.stepLimit = stepLimit;
    this.sizeLimit = sizeLimit;
  }

  /** Why the budget is spent, or null while it is not. */
  String exceeded() {
    return exceeded;
  }

  @Override
  public void callback(CelExpr expr, Object value) {
    if (exceeded != null) {
      throw new Spent();
    }
    if (++steps > stepLimit) {
      spend("its cost limit of " + stepLimit + " evaluation steps");
    }
    var kind = expr.getKind();
    if (kind == CelExpr.ExprKind.Kind.IDENT || kind == CelExpr.ExprKind.Kind.SELECT) {
      return; // a name or a field of a value already counted: nothing new was built
    }
    if (value instanceof String || value instanceof List<?> || value instanceof Map<?, ?>) {
      if (value.getClass().getSimpleName().equals("ConcatenatedListView")) {
        return; // a map()/filter() result while it grows; charged once complete
      }
      long remaining = sizeLimit - size;
      long cost = expanded(value, remaining);
      size += cost;
      if (size > sizeLimit) {
        spend(
            "its size limit of "
                + sizeLimit
                + " elements and characters (the values it builds, as JSON would hold them)");
      }
    }
  }

  private void spend(String what) {
    exceeded = "the expression exceeded " + what;
    throw new Spent();
  }

  /**
   * Elements and characters of {@code value} with everything it holds, at most a little over {@code
   * remaining} (measuring stops there, and a partial count is not remembered).
   */
  private long expanded(Object value, long remaining) {
    return switch (value) {
      case String s -> 1 + s.length();
      case List<?> list -> {
        var known = measured.get(list);
        if (known != null) {
          yield known;
        }
        long total = 1;
        for (var e : list) {
          total += expanded(e, remaining - total);
          if (total > remaining) {
            yield total;
          }
        }
        measured.put(list, total);
        yield total;
      }
      case Map<?, ?> map -> {
        var known = measured.get(map);
        if (known != null) {
          yield known;
        }
        long total = 1;
        for (var e : map.entrySet()) {
          total += expanded(e.getKey(), remaining - total) + expanded(e.getValue(), remaining);
          if (total > remaining) {
            yield total;
          }
        }
        measured.put(map, total);
        yield total;
      }
      case null, default -> 1;
    };
  }

  /** Thrown from the listener once the budget is spent. */
  static final class Spent extends RuntimeException {
    Spent() {
      super("budget spent", null, false, false);
    }
  }
}
