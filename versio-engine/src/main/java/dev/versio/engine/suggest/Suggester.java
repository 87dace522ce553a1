package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.Leaf;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Compares every served spoke with the hub, leaf by leaf ({@link SpokeComparison}). A hub-only and
 * a spoke-only leaf become a rule only when their names say so ({@link LinkJudge}) and each is the
 * other's best candidate ({@link Pairing}): a guess that could go two ways, or that rests on types
 * alone, is left for the author.
 */
public final class Suggester {
  private static final Set<String> ENVELOPE = Set.of("apiVersion", "kind", "metadata");

  /**
   * Suggests for {@code source} with {@code hubVersion} as the hub, or the storage version when
   * null.
   */
  public Suggestion suggest(SchemaSource source, String hubVersion) {
    var versions = source.versions();
    var hub =
        versions.stream()
            .filter(v -> hubVersion == null ? v.storage() : v.name().equals(hubVersion))
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        hubVersion == null
                            ? source.describe() + " marks no version as storage; pass the hub"
                            : source.describe()
                                + " has no version "
                                + hubVersion
                                + "; it declares "
                                + versions.stream().map(VersionSchema::name).toList()));
    var hubLeaves = leaves(hub);
    var spokes = new ArrayList<SpokeSuggestion>();
    var stored = source.storedVersions();
    for (var v : versions) {
      // a version no longer served but still stored needs its spoke too (the compiler says so)
      if (v == hub || !v.served() && !stored.contains(v.name())) {
        continue;
      }
      spokes.add(SpokeComparison.compare(hub.name(), v.name(), hubLeaves, leaves(v)));
    }
    return new Suggestion(hub.name(), spokes);
  }

  private static Map<FieldPath, Leaf> leaves(VersionSchema version) {
    var out = new LinkedHashMap<FieldPath, Leaf>();
    FlatSchema.of(version.schema())
        .leaves()
        .forEach(
            (path, leaf) -> {
              if (!path.isRoot() && !ENVELOPE.contains(path.segments().getFirst())) {
                out.put(path, leaf);
              }
            });
    return out;
  }
}
