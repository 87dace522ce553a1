package dev.versio.engine.route;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Plan;
import dev.versio.engine.runtime.ConversionException;
import java.util.Objects;

/**
 * Converts objects between any two versions of one target, always through the hub (spoke→spoke is
 * spoke→hub→spoke). Sets {@code apiVersion} to {@code group/toVersion}; never mutates its input.
 */
public final class Router {
  private final CompiledConfig config;
  private final String group;

  /**
   * @param group the API group of the target, used to stamp {@code apiVersion}; empty for the core
   *     group
   */
  public Router(CompiledConfig config, String group) {
    this.config = Objects.requireNonNull(config, "config");
    this.group = Objects.requireNonNull(group, "group");
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
    JsonNode atHub = object;
    if (!from.equals(config.hubVersion())) {
      atHub = plan(from).toHub(object);
    }
    ObjectNode result;
    if (to.equals(config.hubVersion())) {
      result = (ObjectNode) atHub;
    } else {
      result = plan(to).toSpoke(atHub);
    }
    result.put("apiVersion", group.isEmpty() ? to : group + "/" + to);
    return result;
  }

  private Plan plan(String version) {
    var plan = config.plans().get(version);
    if (plan == null) {
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
    return plan;
  }
}
