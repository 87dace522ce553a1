package dev.versio.engine.runtime;

import java.util.LinkedHashSet;
import java.util.Set;

/** The annotations the element ops of a {@code ForEach} keep values in, at any depth. */
final class ElementKeys {
  private ElementKeys() {}

  /** The annotations that the element ops of {@code steps} read back. */
  static Set<String> restored(Steps steps) {
    var out = new LinkedHashSet<String>();
    collect(steps, false, out);
    return out;
  }

  static Set<String> kept(Steps steps) {
    var out = new LinkedHashSet<String>();
    collect(steps, true, out);
    return out;
  }

  private static void collect(Steps steps, boolean kept, Set<String> out) {
    for (var op : steps.ops()) {
      collect(op, kept, out);
    }
  }

  private static void collect(Op op, boolean kept, Set<String> out) {
    switch (op) {
      case Op.ElementStash s when kept -> out.add(s.key());
      case Op.ElementRestore r when !kept -> out.add(r.key());
      case Op.ForEach f -> collect(f.steps(), kept, out);
      case Op.When w -> collect(w.inner(), kept, out);
      default -> {}
    }
  }
}
