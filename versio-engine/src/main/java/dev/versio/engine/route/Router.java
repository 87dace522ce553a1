package dev.versio.engine.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Plan;
import dev.versio.engine.runtime.ConversionException;
import dev.versio.engine.runtime.Scripts;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Converts objects between any two versions of one target, always through the hub (spoke→spoke is
 * spoke→hub→spoke). Sets {@code apiVersion} to {@code group/toVersion}; never mutates its input.
 * The result may hold the input's {@code metadata} node itself when no rule writes metadata (see
 * {@link Plan#toSpoke}): a caller that changes the result's metadata, or the input's, copies first.
 */
public final class Router {
  private final CompiledConfig config;
  private final String group;
  private final Map<String, Route> routes;
  private final boolean runsScripts;

  /**
   * What converting to or from one version takes: its plan (null for the hub) and the {@code
   * apiVersion} an object converted to it carries. Built once: every conversion looks up two.
   */
  private record Route(Plan plan, TextNode apiVersion) {}

  /**
   * @param group the API group of the target, used to stamp {@code apiVersion}; empty for the core
   *     group
   */
  public Router(CompiledConfig config, String group) {
    this.config = Objects.requireNonNull(config, "config");
    this.group = Objects.requireNonNull(group, "group");
    var byVersion = new HashMap<String, Route>();
    config.plans().forEach((v, plan) -> byVersion.put(v, new Route(plan, apiVersion(v))));
    byVersion.put(config.hubVersion(), new Route(null, apiVersion(config.hubVersion())));
    this.routes = byVersion; // never changed after this
    this.runsScripts =
        config.plans().values().stream()
            .anyMatch(p -> Scripts.any(p.hubToSpoke().ops()) || Scripts.any(p.spokeToHub().ops()));
  }

  /**
   * Whether a conversion may run a script (CEL, JSON Patch), whose cost per object is bounded only
   * by its own budget; without one, converting costs time in proportion to the object.
   */
  public boolean runsScripts() {
    return runsScripts;
  }

  private TextNode apiVersion(String version) {
    return TextNode.valueOf(group.isEmpty() ? version : group + "/" + version);
  }

  public CompiledConfig config() {
    return config;
  }

  /**
   * Converts {@code object} from {@code from} to {@code to}. When they are equal the input itself
   * is returned, untouched.
   *
   * @throws ConversionException naming the spoke, direction, rule and path of the first failure, or
   *     the version that has no plan
   */
  public JsonNode convert(JsonNode object, String from, String to) {
    if (from.equals(to)) {
      return object;
    }
    var source = route(from);
    var target = route(to);
    // between(from, to).convert(object), without a Between for one object
    return Between.convert(object, source.plan(), target.plan(), target.apiVersion());
  }

  /**
   * The conversion from {@code from} to {@code to}, with both versions looked up once: a review's
   * objects nearly always share their version, so the webhook converts each of them with one.
   *
   * @throws ConversionException naming the version that has no plan
   */
  public Between between(String from, String to) {
    if (from.equals(to)) {
      return new Between(null, null, null);
    }
    var source = route(from);
    var target = route(to);
    return new Between(source.plan(), target.plan(), target.apiVersion());
  }

  /**
   * A conversion between two versions of the target, resolved: always through the hub, so at most a
   * plan out of the source spoke ({@code toHub}) and one into the target spoke ({@code toSpoke}).
   * Immutable; the same for every object between the two versions.
   */
  public static final class Between {
    private final Plan toHub; // null when converting from the hub
    private final Plan toSpoke; // null when converting to the hub
    private final TextNode apiVersion; // null when both versions are the same

    private Between(Plan toHub, Plan toSpoke, TextNode apiVersion) {
      this.toHub = toHub;
      this.toSpoke = toSpoke;
      this.apiVersion = apiVersion;
    }

    /**
     * Converts {@code object}, never modifying it; between the same version, returns it as it is.
     *
     * @throws ConversionException naming the spoke, direction, rule and path of the first failure
     */
    public JsonNode convert(JsonNode object) {
      return apiVersion == null ? object : convert(object, toHub, toSpoke, apiVersion);
    }

    private static JsonNode convert(
        JsonNode object, Plan toHub, Plan toSpoke, TextNode apiVersion) {
      if (toHub == null) {
        return toSpoke.toSpoke(object, apiVersion);
      }
      if (toSpoke == null) {
        return toHub.toHub(object, apiVersion);
      }
      return toSpoke.toSpoke(toHub.toHub(object, null), apiVersion);
    }
  }

  /**
   * The first field of {@code object} that the schemas this router was compiled from do not
   * declare, which converting {@code from} → {@code to} would pass through untouched (below the top
   * level, outside arrays), or empty. A plan compiled from schemas that have changed since uses it
   * to refuse what it cannot know how to convert.
   */
  public Optional<String> firstUnknownField(JsonNode object, String from, String to) {
    if (from.equals(to)) {
      return Optional.empty();
    }
    var source = route(from);
    // from the hub, the spoke's plan leads (to is not the hub: from and to differ)
    var first = source.plan() == null ? route(to).plan().hubToSpoke() : source.plan().spokeToHub();
    for (var op : first.ops()) {
      if (op instanceof dev.versio.engine.runtime.Op.Passthrough passthrough) {
        return Optional.ofNullable(passthrough.firstUnknown(object));
      }
    }
    return Optional.empty();
  }

  private Route route(String version) {
    var route = routes.get(version);
    if (route == null) {
      throw new ConversionException(
          "no compiled plan for version "
              + version
              + " of "
              + config.target()
              + " (hub "
              + config.hubVersion()
              + ", spokes "
              + String.join(", ", config.plans().keySet().stream().sorted().toList())
              + ")");
    }
    return route;
  }
}
