package dev.versio.operator.config;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Whether a target (CRD or XRD) lets a config take over its {@code spec.conversion}. Writing a
 * config must not be enough to reroute another team's resource through Versio: the target consents
 * by an annotation its owner sets ({@value #CONSENT_ANNOTATION}: the config's name, or {@code *}
 * for any config), or its API group is one the operator's admin allows for every config ({@code
 * --target-groups}). A target whose conversion webhook someone else manages (strategy Webhook, no
 * {@value ConversionPatch#MANAGED_BY}) is refused even then, unless its owner also sets {@value
 * #TAKEOVER_ANNOTATION}{@code : "true"}.
 *
 * @param groups API groups whose targets consent without the annotation: exact ({@code
 *     example.com}), a suffix ({@code *.example.com}, the group itself included), or {@code *}
 */
public record TargetConsent(List<String> groups) {
  /** On a target: which config may convert it (its name, or {@code *} for any). */
  public static final String CONSENT_ANNOTATION = "versio.dev/conversion-config";

  /** On a target: a conversion webhook someone else manages may be replaced by Versio's. */
  public static final String TAKEOVER_ANNOTATION = "versio.dev/take-over-conversion";

  public TargetConsent {
    groups = List.copyOf(groups);
    for (var group : groups) {
      if (group.isBlank()
          || (group.contains("*") && !group.equals("*") && !group.startsWith("*."))
          || group.indexOf('*', 1) > 0) {
        throw new IllegalArgumentException(
            "--target-groups: '"
                + group
                + "' is not a group, '*.' followed by a group, or '*' (e.g. example.com,"
                + " *.example.com)");
      }
    }
  }

  /** Consent only by annotation. */
  public static TargetConsent byAnnotation() {
    return new TargetConsent(List.of());
  }

  /**
   * Why {@code configName} (of kind {@code configKind}) may not take {@code target}, naming the
   * fix; empty when it may.
   *
   * @param noun {@code CRD} or {@code XRD}
   * @param targetJson the whole target object
   * @param annotations its annotations
   */
  public Optional<String> refusal(
      String configKind,
      String configName,
      String noun,
      String targetName,
      JsonNode targetJson,
      Map<String, String> annotations) {
    Objects.requireNonNull(annotations, "annotations");
    if ((configKind + "/" + configName).equals(annotations.get(ConversionPatch.MANAGED_BY))) {
      return Optional.empty(); // this config converts it already: consent was settled then
    }
    var consent = annotations.get(CONSENT_ANNOTATION);
    var group = targetJson.path("spec").path("group").asText("");
    boolean byAnnotation =
        consent != null
            && List.of(consent.split(",")).stream()
                .map(String::strip)
                .anyMatch(c -> c.equals("*") || c.equals(configName));
    if (!byAnnotation && !allows(group)) {
      return Optional.of(
          noun
              + " "
              + targetName
              + " does not consent to conversion by "
              + configKind
              + "/"
              + configName
              + (consent == null
                  ? ""
                  : " (its " + CONSENT_ANNOTATION + " annotation names '" + consent + "')")
              + ": its owner annotates it "
              + CONSENT_ANNOTATION
              + "="
              + configName
              + " (or '*'), or the operator's admin allows its group "
              + (group.isEmpty() ? "" : "'" + group + "' ")
              + "(--target-groups, chart value targetGroups)");
    }
    var conversion = targetJson.path("spec").path("conversion");
    boolean foreignWebhook =
        "webhook".equalsIgnoreCase(conversion.path("strategy").asText(""))
            && !annotations.containsKey(ConversionPatch.MANAGED_BY);
    if (foreignWebhook && !"true".equals(annotations.get(TAKEOVER_ANNOTATION))) {
      var url = conversion.path("webhook").path("clientConfig").path("url").asText("");
      var service = conversion.path("webhook").path("clientConfig").path("service");
      var where =
          !url.isEmpty()
              ? url
              : service.isMissingNode()
                  ? "a webhook"
                  : "Service "
                      + service.path("namespace").asText("?")
                      + "/"
                      + service.path("name").asText("?");
      return Optional.of(
          noun
              + " "
              + targetName
              + " already converts through a webhook Versio does not manage ("
              + where
              + "); replacing it would cut its owner's conversion off: its owner annotates it "
              + TAKEOVER_ANNOTATION
              + "=true to hand it over");
    }
    return Optional.empty();
  }

  private boolean allows(String group) {
    for (var allowed : groups) {
      if (allowed.equals("*")
          || allowed.equals(group)
          || (allowed.startsWith("*.")
              && (group.equals(allowed.substring(2)) || group.endsWith(allowed.substring(1))))) {
        return true;
      }
    }
    return false;
  }
}
