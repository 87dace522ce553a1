package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.PATH;

import dev.versio.engine.rule.Strategy;
import java.util.ArrayList;
import java.util.List;

/** Assembles one {@link StrategySpec} so that the 29 definitions read like the reference. */
final class SpecBuilder {
  private final Strategy strategy;
  private final String summary;
  private final List<ParamSpec> params = new ArrayList<>();
  private final List<String> notes = new ArrayList<>();
  private StrategySpec.Direction hubToSpoke;
  private StrategySpec.Direction spokeToHub;
  private String hubSchema;
  private String spokeSchema;
  private String rule;
  private String hubObject;
  private String spokeObject;
  private String hubObjectBack;
  private boolean losslessHubToSpoke = true;
  private boolean losslessSpokeToHub = true;

  private SpecBuilder(Strategy strategy, String summary) {
    this.strategy = strategy;
    this.summary = summary;
  }

  static SpecBuilder spec(Strategy strategy, String summary) {
    return new SpecBuilder(strategy, summary);
  }

  /** The common {@code hubPath} parameter. */
  static ParamSpec hubPath(String what) {
    return required("hubPath", PATH, what);
  }

  /** The common {@code spokePath} parameter. */
  static ParamSpec spokePath(String what) {
    return required("spokePath", PATH, what);
  }

  SpecBuilder param(ParamSpec param) {
    params.add(param);
    return this;
  }

  SpecBuilder hubToSpoke(String does, String lossless) {
    hubToSpoke = new StrategySpec.Direction(does, lossless);
    return this;
  }

  SpecBuilder spokeToHub(String does, String lossless) {
    spokeToHub = new StrategySpec.Direction(does, lossless);
    return this;
  }

  SpecBuilder note(String note) {
    notes.add(note);
    return this;
  }

  /** The example's hub and spoke {@code spec} properties (YAML). */
  SpecBuilder schemas(String hub, String spoke) {
    hubSchema = hub;
    spokeSchema = spoke;
    return this;
  }

  /** The example's rule: one YAML list item. */
  SpecBuilder rule(String yaml) {
    rule = yaml;
    return this;
  }

  /** An object at the hub and what it becomes at the spoke; the way back restores it. */
  SpecBuilder objects(String hub, String spoke) {
    hubObject = hub;
    spokeObject = spoke;
    hubObjectBack = hub;
    return this;
  }

  /** What the spoke object becomes at the hub when that differs from the original hub object. */
  SpecBuilder back(String hub) {
    hubObjectBack = hub;
    return this;
  }

  /** The compiler's verdict on the example, per direction. */
  SpecBuilder lossless(boolean hubToSpoke, boolean spokeToHub) {
    losslessHubToSpoke = hubToSpoke;
    losslessSpokeToHub = spokeToHub;
    return this;
  }

  StrategySpec build() {
    return new StrategySpec(
        strategy,
        summary,
        params,
        hubToSpoke,
        spokeToHub,
        notes,
        new StrategySpec.Example(
            hubSchema,
            spokeSchema,
            rule,
            hubObject,
            spokeObject,
            hubObjectBack,
            losslessHubToSpoke,
            losslessSpokeToHub));
  }
}
