package dev.versio.operator.migrate;

import com.fasterxml.jackson.databind.JsonNode;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * The CRDs Crossplane generates from an XRD, as a storage migration needs them: the composite's
 * ({@code <names.plural>.<group>}, the XRD's own name) and, when the XRD declares {@code
 * claimNames}, the claim's ({@code <claimNames.plural>.<group>}). Both are stored at the XRD's
 * referenceable version and get the XRD's {@code spec.conversion} copied by Crossplane (1.12 and
 * later), so their objects are re-stored like a CRD config's.
 */
public final class GeneratedCrds {
  private GeneratedCrds() {}

  /** The generated CRDs' names: the composite's first, then the claim's when there is one. */
  public static List<String> names(JsonNode xrd) {
    var spec = xrd.path("spec");
    var group = spec.path("group").asText("");
    var names = new ArrayList<String>();
    var plural = spec.path("names").path("plural").asText("");
    names.add(plural.isEmpty() ? xrd.path("metadata").path("name").asText() : plural + "." + group);
    var claims = spec.path("claimNames").path("plural").asText("");
    if (!claims.isEmpty()) {
      names.add(claims + "." + group);
    }
    return names;
  }

  /** The generated CRDs' names, read from the XRD as the cache holds it (no conversion to JSON). */
  public static List<String> names(GenericKubernetesResource xrd) {
    var spec = xrd.getAdditionalProperties().get("spec") instanceof Map<?, ?> m ? m : Map.of();
    var group = text(spec.get("group"));
    var names = new ArrayList<String>();
    var plural = spec.get("names") instanceof Map<?, ?> n ? text(n.get("plural")) : "";
    names.add(plural.isEmpty() ? xrd.getMetadata().getName() : plural + "." + group);
    var claims = spec.get("claimNames") instanceof Map<?, ?> c ? text(c.get("plural")) : "";
    if (!claims.isEmpty()) {
      names.add(claims + "." + group);
    }
    return names;
  }

  private static String text(Object value) {
    return value instanceof String s ? s : "";
  }

  /**
   * Whether a CRD changed in what a storage migration reads of it: which version is stored, {@code
   * status.storedVersions}, or {@code spec.conversion}.
   */
  public static boolean storageChange(CustomResourceDefinition old, CustomResourceDefinition now) {
    return !Objects.equals(storage(old), storage(now))
        || !Objects.equals(storedVersions(old), storedVersions(now))
        || !Objects.equals(old.getSpec().getConversion(), now.getSpec().getConversion());
  }

  private static String storage(CustomResourceDefinition crd) {
    return crd.getSpec().getVersions().stream()
        .filter(v -> Boolean.TRUE.equals(v.getStorage()))
        .map(v -> v.getName())
        .findFirst()
        .orElse(null);
  }

  private static List<String> storedVersions(CustomResourceDefinition crd) {
    return crd.getStatus() == null ? null : crd.getStatus().getStoredVersions();
  }

  /**
   * The storage migration of an XRD's generated CRDs, from the CRDs {@code crds} finds by name;
   * empty while the composite's CRD is not there (nothing is stored yet). It is not ready while the
   * claim's CRD is missing or a CRD does not carry the XRD's conversion yet: re-storing an object
   * read through a CRD without it would relabel the old version instead of converting it.
   */
  public static Optional<MigrationTarget> target(
      JsonNode xrd, Function<String, Optional<JsonNode>> crds) {
    var names = names(xrd);
    var targets = new ArrayList<StorageTarget>();
    String notReady =
        "Webhook".equals(xrd.path("spec").path("conversion").path("strategy").asText())
            ? null
            : "xrd/"
                + xrd.path("metadata").path("name").asText()
                + " does not convert through the webhook yet";
    for (var name : names) {
      var crd = crds.apply(name);
      if (crd.isEmpty()) {
        if (targets.isEmpty()) {
          return Optional.empty();
        }
        notReady = notReady != null ? notReady : "crd/" + name + " (the claims') is not there yet";
        continue;
      }
      var target = StorageTarget.of(crd.get());
      if (target.isEmpty()) {
        if (targets.isEmpty()) {
          return Optional.empty();
        }
        notReady = notReady != null ? notReady : "crd/" + name + " marks no storage version";
        continue;
      }
      targets.add(target.get());
      if (notReady == null && !sameConversion(xrd, crd.get())) {
        notReady =
            "crd/"
                + name
                + " does not carry the XRD's conversion yet (Crossplane copies it from"
                + " spec.conversion)";
      }
    }
    return Optional.of(new MigrationTarget(targets, notReady));
  }

  /**
   * The XRD's versions as a CRD would state them, for the version lifecycle: {@code
   * spec.versions[].{name, served, deprecated}} from the XRD, {@code storage} = {@code
   * referenceable}, and {@code status.storedVersions} every version the generated CRDs list (an
   * object of either may be stored there). Empty while the composite's CRD is not there.
   */
  public static Optional<JsonNode> versionsView(
      JsonNode xrd, Function<String, Optional<JsonNode>> crds) {
    if (crds.apply(names(xrd).getFirst()).isEmpty()) {
      return Optional.empty();
    }
    var stored = storedVersions(xrd, crds);
    var view = EngineJson.nodes().objectNode();
    var versions = view.putObject("spec").putArray("versions");
    for (var v : xrd.path("spec").path("versions")) {
      versions
          .addObject()
          .put("name", v.path("name").asText())
          .put("served", v.path("served").asBoolean(true))
          .put("storage", v.path("referenceable").asBoolean(false))
          .put("deprecated", v.path("deprecated").asBoolean(false));
    }
    var list = view.putObject("status").putArray("storedVersions");
    stored.forEach(list::add);
    return Optional.of(view);
  }

  /** Every version the generated CRDs there are list in {@code status.storedVersions}. */
  private static java.util.Set<String> storedVersions(
      JsonNode xrd, Function<String, Optional<JsonNode>> crds) {
    var stored = new java.util.LinkedHashSet<String>();
    for (var name : names(xrd)) {
      crds.apply(name)
          .ifPresent(
              crd ->
                  crd.path("status").path("storedVersions").forEach(v -> stored.add(v.asText())));
    }
    return stored;
  }

  /**
   * Whether {@code crd} converts through the webhook the XRD names: the same strategy, URL or
   * Service (name, namespace, path) and CA bundle. The port of a Service is not compared: the
   * apiserver defaults it on the CRD.
   */
  static boolean sameConversion(JsonNode xrd, JsonNode crd) {
    var wanted = xrd.path("spec").path("conversion");
    var actual = crd.path("spec").path("conversion");
    if (!wanted.path("strategy").asText("None").equals(actual.path("strategy").asText("None"))) {
      return false;
    }
    var a = wanted.path("webhook").path("clientConfig");
    var b = actual.path("webhook").path("clientConfig");
    return a.path("url").equals(b.path("url"))
        && a.path("caBundle").equals(b.path("caBundle"))
        && a.path("service").path("name").equals(b.path("service").path("name"))
        && a.path("service").path("namespace").equals(b.path("service").path("namespace"))
        && a.path("service").path("path").equals(b.path("service").path("path"));
  }
}
