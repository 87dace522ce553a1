package dev.versio.engine.rule;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;
import org.apache.commons.text.similarity.LevenshteinDistance;

/** Finds the known name a misspelled one most likely meant, for "did you mean" hints. */
final class DidYouMean {
  /** At most this many single-character edits apart counts as a likely typo. */
  static final int MAX_EDITS = 2;

  private static final LevenshteinDistance DISTANCE = new LevenshteinDistance(MAX_EDITS);

  private DidYouMean() {}

  /**
   * The known name {@code typed} most likely meant: one that differs only in case, else the nearest
   * within {@link #MAX_EDITS} edits (the first listed on a tie); empty when none is close.
   */
  static Optional<String> closest(String typed, Collection<String> known) {
    var lower = typed.toLowerCase(Locale.ROOT);
    for (var name : known) {
      if (name.toLowerCase(Locale.ROOT).equals(lower)) {
        return Optional.of(name);
      }
    }
    String best = null;
    int bestDistance = Integer.MAX_VALUE;
    for (var name : known) {
      int distance = DISTANCE.apply(typed, name); // -1 beyond MAX_EDITS
      if (distance >= 0 && distance < bestDistance) {
        best = name;
        bestDistance = distance;
      }
    }
    return Optional.ofNullable(best);
  }

  /**
   * {@code did you mean 'rules'?} when a known name is close, else {@code listIntro} followed by
   * every known name.
   */
  static String hint(String typed, Collection<String> known, String listIntro) {
    return closest(typed, known)
        .map(name -> "did you mean '" + name + "'?")
        .orElseGet(() -> listIntro + String.join(", ", known));
  }
}
