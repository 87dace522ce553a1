package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Strategy;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * What makes a proposed rule the same as an expected one: the strategy, the hub and spoke paths as
 * flattened-schema paths ({@code spec.pools[].vmSize} inside a forEach) and, for a numericScale,
 * the factor. Options ({@code when}, {@code acknowledgeLossy}) do not count.
 */
record RuleKey(Strategy strategy, String hubPath, String spokePath, BigDecimal factor) {
  /** The strategies {@code versio suggest} can propose (enum mappings count by their paths). */
  static final Set<Strategy> PROPOSABLE =
      EnumSet.of(
          Strategy.FIELD_RENAME,
          Strategy.NUMERIC_SCALE,
          Strategy.TYPE_COERCE,
          Strategy.DURATION,
          Strategy.QUANTITY,
          Strategy.ENUM_REMAP,
          Strategy.SINGLETON_ARRAY_TO_OBJECT,
          Strategy.OBJECT_TO_SINGLETON_ARRAY);

  RuleKey {
    Objects.requireNonNull(strategy, "strategy");
    factor = factor == null ? null : factor.stripTrailingZeros();
  }

  static RuleKey of(ProposedRule rule) {
    return of(rule.toRule(), FieldPath.root(), FieldPath.root()).getFirst();
  }

  /** The keys of a config rule, a forEach's nested rules included, below the given prefixes. */
  static List<RuleKey> of(Rule rule, FieldPath hubPrefix, FieldPath spokePrefix) {
    return switch (rule) {
      case Rule.FieldRename r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.NumericScale r ->
          List.of(
              pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), r.factor()));
      case Rule.TypeCoerce r ->
          List.of(pair(r.strategy(), hubPrefix, r.path(), spokePrefix, r.path(), null));
      case Rule.Duration r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.Quantity r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.EnumRemap r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.SingletonArrayToObject r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.ObjectToSingletonArray r ->
          List.of(pair(r.strategy(), hubPrefix, r.hubPath(), spokePrefix, r.spokePath(), null));
      case Rule.ForEach r -> {
        var out = new ArrayList<RuleKey>();
        var hubItems = r.hubItemsPath().under(hubPrefix).child(FieldPath.ITEMS);
        var spokeItems = r.spokeItemsPath().under(spokePrefix).child(FieldPath.ITEMS);
        for (var nested : r.rules()) {
          out.addAll(of(nested, hubItems, spokeItems));
        }
        yield out;
      }
      default -> List.of(new RuleKey(rule.strategy(), null, null, null));
    };
  }

  boolean proposable() {
    return PROPOSABLE.contains(strategy);
  }

  private static RuleKey pair(
      Strategy strategy,
      FieldPath hubPrefix,
      FieldPath hub,
      FieldPath spokePrefix,
      FieldPath spoke,
      BigDecimal factor) {
    return new RuleKey(
        strategy, hub.under(hubPrefix).toString(), spoke.under(spokePrefix).toString(), factor);
  }

  @Override
  public String toString() {
    return strategy.wireName()
        + " "
        + hubPath
        + " -> "
        + spokePath
        + (factor == null ? "" : " ×" + factor.toPlainString());
  }
}
