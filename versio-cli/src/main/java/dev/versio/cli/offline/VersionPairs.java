package dev.versio.cli.offline;

import java.util.List;
import java.util.Set;

/**
 * The conversion paths {@code versio test --version-pair FROM:TO} restricts itself to; empty means
 * every path. Each pair names served versions of the config, checked when parsed so a typo is an
 * error rather than a silently empty run.
 */
record VersionPairs(Set<Pair> pairs) {
  record Pair(String from, String to) {}

  VersionPairs {
    pairs = Set.copyOf(pairs);
  }

  static VersionPairs parse(List<String> specs, List<String> versions) {
    var pairs =
        specs.stream()
            .map(
                spec -> {
                  var parts = spec.split(":", -1);
                  if (parts.length != 2 || parts[0].isBlank() || parts[1].isBlank()) {
                    throw new LoadError(
                        "--version-pair '" + spec + "' is not FROM:TO, e.g. --version-pair v1:v2");
                  }
                  for (var version : parts) {
                    if (!versions.contains(version)) {
                      throw new LoadError(
                          "--version-pair '"
                              + spec
                              + "' names "
                              + version
                              + ", which the config does not convert; use one of "
                              + versions);
                    }
                  }
                  return new Pair(parts[0], parts[1]);
                })
            .toList();
    return new VersionPairs(Set.copyOf(pairs));
  }

  boolean includes(String from, String to) {
    return pairs.isEmpty() || pairs.contains(new Pair(from, to));
  }

  boolean restricted() {
    return !pairs.isEmpty();
  }
}
