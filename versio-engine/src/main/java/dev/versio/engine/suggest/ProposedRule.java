package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.RuleOptions;
import dev.versio.engine.rule.Strategy;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;

/**
 * A rule {@code versio suggest} writes into the draft, with the reason it gives the author. Each
 * stands for one engine {@link Rule} ({@link #toRule()}), without options: whether a lossy
 * direction is acceptable is the author's call.
 */
public sealed interface ProposedRule {
  /** Why the rule was proposed, in words for the author. */
  String reason();

  /** The rule this proposal stands for. */
  Rule toRule();

  /** The strategy of the rule for the field itself (inside any {@code ForEach} it needs). */
  default Strategy strategy() {
    var rule = toRule();
    while (rule instanceof Rule.ForEach f) {
      rule = f.rules().getFirst();
    }
    return rule.strategy();
  }

  /**
   * The rule {@code make} builds for the two fields, inside one {@code ForEach} per list level
   * their paths go through ({@code spec.pools[].taints[].effect}: two). Both paths go through the
   * same lists: the suggester pairs nothing else.
   */
  private static Rule nested(
      String hubPath,
      String spokePath,
      java.util.function.BiFunction<FieldPath, FieldPath, Rule> make) {
    var hub = hubPath.split("\\[\\]\\.", -1);
    var spoke = spokePath.split("\\[\\]\\.", -1);
    if (hub.length != spoke.length) {
      throw new IllegalArgumentException(
          hubPath + " and " + spokePath + " go through different lists");
    }
    var rule =
        make.apply(FieldPath.parse(hub[hub.length - 1]), FieldPath.parse(spoke[hub.length - 1]));
    for (int i = hub.length - 2; i >= 0; i--) {
      rule =
          new Rule.ForEach(
              FieldPath.parse(hub[i]),
              FieldPath.parse(spoke[i]),
              List.of(rule),
              RuleOptions.none());
    }
    return rule;
  }

  /** A field moved or renamed: the same value under another name. */
  record Rename(String hubPath, String spokePath, String reason) implements ProposedRule {
    public Rename {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Rule toRule() {
      return nested(hubPath, spokePath, (h, s) -> new Rule.FieldRename(h, s, RuleOptions.none()));
    }
  }

  /** The same quantity in another unit: {@code hub = spoke × factor}. */
  record Scale(String hubPath, String spokePath, BigDecimal factor, String reason)
      implements ProposedRule {
    public Scale {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
      if (factor.signum() == 0) {
        throw new IllegalArgumentException("a scale factor must not be 0");
      }
    }

    @Override
    public Rule toRule() {
      return nested(
          hubPath, spokePath, (h, s) -> new Rule.NumericScale(h, s, factor, RuleOptions.none()));
    }
  }

  /** The same field with another scalar type. */
  record Coerce(String path, String reason) implements ProposedRule {
    public Coerce {
      Objects.requireNonNull(path, "path");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Rule toRule() {
      return nested(
          path,
          path,
          (h, s) -> new Rule.TypeCoerce(h, Rule.FractionalPolicy.ERROR, RuleOptions.none()));
    }
  }

  /** A Go duration text on one side, whole seconds on the other. */
  record Duration(String hubPath, String spokePath, String reason) implements ProposedRule {
    public Duration {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Rule toRule() {
      return nested(hubPath, spokePath, (h, s) -> new Rule.Duration(h, s, RuleOptions.none()));
    }
  }

  /** A Kubernetes quantity text on one side, milli-units on the other. */
  record Quantity(String hubPath, String spokePath, String reason) implements ProposedRule {
    public Quantity {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Rule toRule() {
      return nested(hubPath, spokePath, (h, s) -> new Rule.Quantity(h, s, RuleOptions.none()));
    }
  }

  /**
   * An object on one side held as a list of one on the other ({@code arrayOnHub}: the hub holds the
   * list); {@code nested} when lists of one sit inside it too.
   */
  record Singleton(
      String hubPath, String spokePath, boolean arrayOnHub, boolean nested, String reason)
      implements ProposedRule {
    public Singleton {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
    }

    @Override
    public Rule toRule() {
      return ProposedRule.nested(
          hubPath,
          spokePath,
          (h, s) ->
              arrayOnHub
                  ? new Rule.SingletonArrayToObject(h, s, nested, RuleOptions.none())
                  : new Rule.ObjectToSingletonArray(h, s, nested, RuleOptions.none()));
    }
  }

  /**
   * An enum whose values were respelled: each hub value with its spoke value; values of one side
   * with no counterpart on the other are dropped ({@code dropHub}, {@code dropSpoke}).
   */
  record EnumChange(
      String hubPath,
      String spokePath,
      List<Rule.EnumMapping> mapping,
      boolean dropHub,
      boolean dropSpoke,
      String reason)
      implements ProposedRule {
    public EnumChange {
      Objects.requireNonNull(hubPath, "hubPath");
      Objects.requireNonNull(spokePath, "spokePath");
      Objects.requireNonNull(reason, "reason");
      mapping = List.copyOf(mapping);
    }

    @Override
    public Rule toRule() {
      return nested(
          hubPath,
          spokePath,
          (h, s) ->
              new Rule.EnumRemap(
                  h,
                  s,
                  mapping,
                  dropHub ? Rule.OnUnknown.DROP : Rule.OnUnknown.ERROR,
                  dropSpoke ? Rule.OnUnknown.DROP : Rule.OnUnknown.ERROR,
                  RuleOptions.none()));
    }
  }
}
