package dev.versio.engine.rule.catalog;

import dev.versio.engine.rule.Strategy;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the engine declares about one strategy: what it does, its parameters, what each
 * direction does and when that direction is lossless, and a worked example. The parser reads
 * exactly these parameters, and the reference and the CRD schema are generated from them.
 *
 * @param strategy the strategy
 * @param summary one sentence: what the strategy is for
 * @param params the parameters of its params block, in the order the reference lists them
 * @param hubToSpoke the hub→spoke direction
 * @param spokeToHub the spoke→hub direction
 * @param notes further rules worth knowing (compile-time checks, runtime failures); may be empty
 * @param example a config that uses it, with schemas and objects
 */
public record StrategySpec(
    Strategy strategy,
    String summary,
    List<ParamSpec> params,
    Direction hubToSpoke,
    Direction spokeToHub,
    List<String> notes,
    Example example) {
  public StrategySpec {
    Objects.requireNonNull(strategy, "strategy");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(hubToSpoke, "hubToSpoke");
    Objects.requireNonNull(spokeToHub, "spokeToHub");
    Objects.requireNonNull(example, "example");
    params = List.copyOf(params);
    notes = List.copyOf(notes);
    var names = new HashSet<String>();
    for (var p : params) {
      if (!names.add(p.name())) {
        throw new IllegalArgumentException(strategy + " declares " + p.name() + " twice");
      }
    }
  }

  /** The parameter called {@code name}, if the strategy declares one. */
  public Optional<ParamSpec> param(String name) {
    return params.stream().filter(p -> p.name().equals(name)).findFirst();
  }

  /** The names of the parameters, in declaration order. */
  public List<String> paramNames() {
    return params.stream().map(ParamSpec::name).toList();
  }

  /**
   * One conversion direction.
   *
   * @param does what the direction writes, in one or two sentences
   * @param lossless when the direction is lossless (its destination keeps everything the source
   *     says), as the compiler decides it
   */
  public record Direction(String does, String lossless) {
    public Direction {
      Objects.requireNonNull(does, "does");
      Objects.requireNonNull(lossless, "lossless");
    }
  }

  /**
   * A worked example: a target whose hub {@code v2} and spoke {@code v1} differ, a rule that
   * converts between them, and one object at each version.
   *
   * @param hubSchema YAML of the hub's {@code spec} properties
   * @param spokeSchema YAML of the spoke's {@code spec} properties
   * @param rule YAML of the rule, as one list item ({@code - strategy: ...})
   * @param hubObject YAML of an object at the hub, without {@code apiVersion} and {@code kind}
   * @param spokeObject what converting {@code hubObject} to the spoke gives
   * @param hubObjectBack what converting {@code spokeObject} back to the hub gives; equals {@code
   *     hubObject} unless the hub→spoke direction is lossy
   * @param losslessHubToSpoke the compiler's verdict for hub→spoke on this example
   * @param losslessSpokeToHub the compiler's verdict for spoke→hub on this example
   */
  public record Example(
      String hubSchema,
      String spokeSchema,
      String rule,
      String hubObject,
      String spokeObject,
      String hubObjectBack,
      boolean losslessHubToSpoke,
      boolean losslessSpokeToHub) {
    public Example {
      Objects.requireNonNull(hubSchema, "hubSchema");
      Objects.requireNonNull(spokeSchema, "spokeSchema");
      Objects.requireNonNull(rule, "rule");
      Objects.requireNonNull(hubObject, "hubObject");
      Objects.requireNonNull(spokeObject, "spokeObject");
      Objects.requireNonNull(hubObjectBack, "hubObjectBack");
      if (!rule.startsWith("- strategy: ")) {
        throw new IllegalArgumentException("an example rule is one list item: - strategy: ...");
      }
    }

    /** Whether the rule loses data in some direction (and so must set acknowledgeLossy). */
    public boolean lossy() {
      return !(losslessHubToSpoke && losslessSpokeToHub);
    }
  }
}
