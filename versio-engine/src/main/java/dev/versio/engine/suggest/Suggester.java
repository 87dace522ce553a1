package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.Leaf;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Compares every served spoke with the hub, leaf by leaf. A hub-only leaf and a spoke-only leaf are
 * proposed as a rename only when they have the same shape, are not inside array items, share their
 * parent or their last name, and are each other's only such candidate: a guess that could go two
 * ways is left for the author.
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
    for (var v : versions) {
      if (v == hub || !v.served()) {
        continue;
      }
      spokes.add(compare(v.name(), hubLeaves, leaves(v)));
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

  private static SpokeSuggestion compare(
      String version, Map<FieldPath, Leaf> hub, Map<FieldPath, Leaf> spoke) {
    var retyped = new ArrayList<SpokeSuggestion.Retyped>();
    var hubOnly = new ArrayList<Leaf>();
    var spokeOnly = new ArrayList<Leaf>();
    hub.forEach(
        (path, leaf) -> {
          var other = spoke.get(path);
          if (other == null) {
            hubOnly.add(leaf);
          } else if (!other.shape().equals(leaf.shape())) {
            retyped.add(
                new SpokeSuggestion.Retyped(path.toString(), leaf.describe(), other.describe()));
          }
        });
    // a change inside an array's items also changes the array: report the array only
    retyped.removeIf(
        r ->
            retyped.stream()
                .anyMatch(
                    o ->
                        o != r && FieldPath.parse(r.path()).startsWith(FieldPath.parse(o.path()))));
    spoke.forEach(
        (path, leaf) -> {
          if (!hub.containsKey(path)) {
            spokeOnly.add(leaf);
          }
        });
    var renames = new ArrayList<SpokeSuggestion.Rename>();
    var pairedHub = new ArrayList<Leaf>();
    var pairedSpoke = new ArrayList<Leaf>();
    for (var h : hubOnly) {
      var candidates = candidates(h, hub, spokeOnly, spoke);
      if (candidates.size() != 1) {
        continue;
      }
      var s = candidates.getFirst();
      if (candidates(s, spoke, hubOnly, hub).size() != 1) {
        continue;
      }
      var sameParent = h.path().parent().equals(s.path().parent());
      renames.add(
          new SpokeSuggestion.Rename(
              h.path().toString(),
              s.path().toString(),
              sameParent
                  ? "same parent and type (" + h.describe() + "), different name"
                  : "same name and type (" + h.describe() + "), different place"));
      pairedHub.add(h);
      pairedSpoke.add(s);
    }
    // an array that moved takes its item fields with it
    hubOnly.removeIf(l -> pairedHub.stream().anyMatch(p -> l.path().startsWith(p.path())));
    spokeOnly.removeIf(l -> pairedSpoke.stream().anyMatch(p -> l.path().startsWith(p.path())));
    return new SpokeSuggestion(version, renames, retyped, topMost(hubOnly), topMost(spokeOnly));
  }

  private static List<Leaf> candidates(
      Leaf leaf, Map<FieldPath, Leaf> own, List<Leaf> others, Map<FieldPath, Leaf> theirs) {
    if (leaf.path().throughItems()) {
      return List.of();
    }
    var signature = signature(leaf, own);
    return others.stream()
        .filter(o -> !o.path().throughItems())
        .filter(o -> o.shape().equals(leaf.shape()))
        .filter(o -> signature(o, theirs).equals(signature))
        .filter(
            o ->
                o.path().parent().equals(leaf.path().parent())
                    || o.path().last().equals(leaf.path().last()))
        .toList();
  }

  /** The shapes of everything below a leaf (an array's item fields), relative to it. */
  private static List<String> signature(Leaf leaf, Map<FieldPath, Leaf> all) {
    var out = new ArrayList<String>();
    all.forEach(
        (path, l) -> {
          if (path.startsWith(leaf.path()) && !path.equals(leaf.path())) {
            out.add(
                String.join(".", path.segments().subList(leaf.path().size(), path.size()))
                    + "="
                    + l.shape());
          }
        });
    out.sort(null);
    return out;
  }

  private static List<String> topMost(List<Leaf> leaves) {
    var out = new ArrayList<String>();
    var kept = new ArrayList<FieldPath>();
    for (var leaf : leaves) {
      if (kept.stream().noneMatch(k -> leaf.path().startsWith(k) && !leaf.path().equals(k))) {
        kept.add(leaf.path());
        out.add(leaf.path().toString());
      }
    }
    return out;
  }
}
