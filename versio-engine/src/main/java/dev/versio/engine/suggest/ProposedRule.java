package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.RuleOptions;
import dev.versio.engine.rule.Strategy;
import java.math.BigDecimal;
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

  default Strategy strategy() {
    return toRule().strategy();
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
      return new Rule.FieldRename(
          FieldPath.parse(hubPath), FieldPath.parse(spokePath), RuleOptions.none());
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
      return new Rule.NumericScale(
          FieldPath.parse(hubPath), FieldPath.parse(spokePath), factor, RuleOptions.none());
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
      return new Rule.TypeCoerce(
          FieldPath.parse(path), Rule.FractionalPolicy.ERROR, RuleOptions.none());
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
      return new Rule.Duration(
          FieldPath.parse(hubPath), FieldPath.parse(spokePath), RuleOptions.none());
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
      return new Rule.Quantity(
          FieldPath.parse(hubPath), FieldPath.parse(spokePath), RuleOptions.none());
    }
  }
}
