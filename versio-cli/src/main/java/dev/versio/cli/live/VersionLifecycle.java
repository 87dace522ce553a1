package dev.versio.cli.live;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Where a CRD stands in retiring a version — add → promote storage → re-store → prune {@code
 * status.storedVersions} → stop serving → remove — and the next step that is safe now. Read from
 * the live CRD ({@code spec.versions[].{name, served, storage, deprecated}}, {@code
 * status.storedVersions}) and the versions the config converts (hub and spokes).
 *
 * @param versions every version the CRD declares, in its order
 * @param next the next safe step, if any
 */
record VersionLifecycle(List<Version> versions, Optional<Step> next) {
  /**
   * One version of the CRD.
   *
   * @param stored listed in {@code status.storedVersions}: objects may be stored at it
   * @param converted the config's hub or one of its spokes
   */
  record Version(
      String name,
      boolean served,
      boolean storage,
      boolean stored,
      boolean deprecated,
      boolean converted) {}

  /** A step of the sequence, and what to do for it. */
  sealed interface Step {
    String version();

    String describe(String crd);

    /** Objects may still be stored at {@code others}: re-store them at the storage version. */
    record Restore(String version, List<String> others) implements Step {
      @Override
      public String describe(String crd) {
        return "re-store every object at "
            + version
            + " (status.storedVersions still lists "
            + String.join(", ", others)
            + "): versio migrate-storage --crd-name "
            + crd
            + ", or let the operator do it (annotate the config versio.dev/migrate-storage=<a new"
            + " value>); either prunes status.storedVersions once every object is handled; until"
            + " then "
            + String.join(" and ", others)
            + " must keep "
            + (others.size() == 1 ? "its spoke" : "their spokes");
      }
    }

    /** Neither served nor stored: nothing reads or holds it any more. */
    record Remove(String version, boolean converted) implements Step {
      @Override
      public String describe(String crd) {
        return version
            + " is neither served nor stored: remove it from spec.versions"
            + (converted ? ", then its spoke from the config" : "");
      }
    }

    /** Deprecated, served, nothing stored at it: stop serving it once no client uses it. */
    record StopServing(String version) implements Step {
      @Override
      public String describe(String crd) {
        return version
            + " is deprecated and no object is stored at it: stop serving it (served: false) once"
            + " no client reads or writes it any more (Versio does not see clients' use yet)";
      }
    }
  }

  /**
   * @param crd the live CRD
   * @param convertedVersions the config's hub and spoke versions
   */
  static VersionLifecycle of(JsonNode crd, Set<String> convertedVersions) {
    var stored = new LinkedHashSet<String>();
    crd.path("status").path("storedVersions").forEach(v -> stored.add(v.asText()));
    var versions = new ArrayList<Version>();
    String storage = null;
    for (var v : crd.path("spec").path("versions")) {
      var name = v.path("name").asText();
      var version =
          new Version(
              name,
              v.path("served").asBoolean(true),
              v.path("storage").asBoolean(false),
              stored.contains(name),
              v.path("deprecated").asBoolean(false),
              convertedVersions.contains(name));
      versions.add(version);
      if (version.storage()) {
        storage = name;
      }
    }
    return new VersionLifecycle(versions, next(versions, storage));
  }

  private static Optional<Step> next(List<Version> versions, String storage) {
    if (storage == null) {
      return Optional.empty();
    }
    var restore =
        versions.stream().filter(v -> v.stored() && !v.storage()).map(Version::name).toList();
    if (!restore.isEmpty()) {
      return Optional.of(new Step.Restore(storage, restore));
    }
    for (var v : versions) {
      if (!v.served() && !v.stored() && !v.storage()) {
        return Optional.of(new Step.Remove(v.name(), v.converted()));
      }
    }
    for (var v : versions) {
      if (v.served() && v.deprecated() && !v.stored() && !v.storage()) {
        return Optional.of(new Step.StopServing(v.name()));
      }
    }
    return Optional.empty();
  }
}
