package dev.versio.engine.runtime;

import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;

/**
 * The positions of a fixed set of names, looked up by hash code. Every conversion looks up the keys
 * of the object it converts in the schema: comparing hash codes (cached in a {@code String}) costs
 * an int comparison per step where comparing names costs a walk over their bytes, and the names are
 * interned, as Jackson interns the keys it parses, so the final comparison is an identity.
 * Immutable; compact (an int and a reference per name), since every plan keeps some.
 */
final class NameIndex {
  static final NameIndex EMPTY = new NameIndex(new int[0], new String[0]);

  private final int[] hashes;
  private final String[] names;

  private NameIndex(int[] hashes, String[] names) {
    this.hashes = hashes;
    this.names = names;
  }

  /** The names in the order this index keeps them ({@link #name(int)}). */
  static NameIndex of(Collection<String> names) {
    var ordered =
        names.stream()
            .distinct()
            .sorted(
                Comparator.comparingInt(String::hashCode).thenComparing(Comparator.naturalOrder()))
            .map(String::intern)
            .toArray(String[]::new);
    var hashes = new int[ordered.length];
    for (int i = 0; i < ordered.length; i++) {
      hashes[i] = ordered[i].hashCode();
    }
    return new NameIndex(hashes, ordered);
  }

  int size() {
    return names.length;
  }

  String name(int index) {
    return names[index];
  }

  /** The position of {@code name}, or -1. */
  int indexOf(String name) {
    int hash = name.hashCode();
    int i = Arrays.binarySearch(hashes, hash);
    if (i < 0) {
      return -1;
    }
    while (i > 0 && hashes[i - 1] == hash) {
      i--; // names that share a hash sit side by side: start at the first of them
    }
    for (; i < hashes.length && hashes[i] == hash; i++) {
      if (names[i].equals(name)) {
        return i;
      }
    }
    return -1;
  }
}
