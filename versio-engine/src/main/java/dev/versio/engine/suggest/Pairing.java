package dev.versio.engine.suggest;

import dev.versio.engine.schema.Leaf;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Pairs hub-only with spoke-only leaves. A link is kept only when it is, for both of its leaves,
 * the strictly best one: a guess that could go two ways is left for the author, and so is a pair of
 * fields with nothing but their type in common (a synonym such as replicas and size looks just like
 * a field removed and an unrelated one added).
 */
final class Pairing {
  private final LinkJudge judge;

  Pairing(LinkJudge judge) {
    this.judge = judge;
  }

  /** The links chosen between {@code hubOnly} and {@code spokeOnly}, in hub declaration order. */
  List<Link> pair(List<Leaf> hubOnly, List<Leaf> spokeOnly) {
    var links = new ArrayList<Link>();
    for (var h : hubOnly) {
      for (var s : spokeOnly) {
        judge.judge(h, s).ifPresent(links::add);
      }
    }
    var chosen = new ArrayList<Link>();
    for (var link : links) {
      if (best(links, link.hub(), null).orElse(null) == link
          && best(links, null, link.spoke()).orElse(null) == link) {
        chosen.add(link);
      }
    }
    return chosen;
  }

  /** The strictly highest-scoring link of a hub leaf (or of a spoke leaf), if there is one. */
  private static Optional<Link> best(List<Link> links, Leaf hub, Leaf spoke) {
    Link top = null;
    boolean tied = false;
    for (var l : links) {
      if (hub != null ? l.hub() != hub : l.spoke() != spoke) {
        continue;
      }
      if (top == null || l.score() > top.score()) {
        top = l;
        tied = false;
      } else if (l.score() == top.score()) {
        tied = true;
      }
    }
    return tied ? Optional.empty() : Optional.ofNullable(top);
  }
}
