package dev.versio.engine.suggest;

import java.util.List;
import java.util.Objects;

/** A proposed starting config: the hub version and what each other served version needs. */
public record Suggestion(String hubVersion, List<SpokeSuggestion> spokes) {
  public Suggestion {
    Objects.requireNonNull(hubVersion, "hubVersion");
    spokes = List.copyOf(spokes);
  }
}
