package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Rule.ExistsOn;
import java.util.ArrayList;
import java.util.List;

/** The paths a rule names on each side, whatever its strategy. */
final class RulePaths {
  private RulePaths() {}

  /** Hub-side paths of {@code rule}. */
  static List<FieldPath> hub(Rule rule) {
    return switch (rule) {
      case Rule.FieldRename r -> List.of(r.hubPath());
      case Rule.ScalarToObject r -> List.of(r.hubPath());
      case Rule.ObjectToScalar r -> List.of(r.hubPath());
      case Rule.SingletonArrayToObject r -> List.of(r.hubPath());
      case Rule.ObjectToSingletonArray r -> List.of(r.hubPath());
      case Rule.FieldsToMap r -> r.hubPaths();
      case Rule.MapToFields r -> List.of(r.hubMapPath());
      case Rule.ToAnnotation r -> List.of(r.hubPath());
      case Rule.ToLabel r -> List.of(r.hubPath());
      case Rule.FromAnnotation r -> List.of();
      case Rule.FromLabel r -> List.of();
      case Rule.EnumRemap r -> List.of(r.hubPath());
      case Rule.DefaultValue r -> r.existsOn() == ExistsOn.HUB ? List.of(r.path()) : List.of();
      case Rule.Constant r -> r.existsOn() == ExistsOn.HUB ? List.of(r.path()) : List.of();
      case Rule.Delete r -> r.existsOn() == ExistsOn.HUB ? List.of(r.path()) : List.of();
      case Rule.JSONPatch r -> List.of();
      case Rule.ForEach r -> List.of(r.hubItemsPath());
      case Rule.TypeCoerce r -> List.of(r.path());
      case Rule.ScalarToFields r -> List.of(r.hubPath());
      case Rule.FieldsToScalar r -> new ArrayList<>(r.hubFields().values());
      case Rule.ArrayToMapByKey r -> List.of(r.hubPath());
      case Rule.MapToArrayByKey r -> List.of(r.hubPath());
      case Rule.NumericScale r -> List.of(r.hubPath());
      case Rule.ListJoin r -> List.of(r.hubPath());
      case Rule.ListSplit r -> List.of(r.hubPath());
      case Rule.Quantity r -> List.of(r.hubPath());
      case Rule.Duration r -> List.of(r.hubPath());
      case Rule.JSONString r -> List.of(r.hubPath());
      case Rule.MapKeyRename r -> List.of(r.hubPath());
      case Rule.CEL r -> r.hubPaths();
    };
  }

  /** Spoke-side paths of {@code rule}. */
  static List<FieldPath> spoke(Rule rule) {
    return switch (rule) {
      case Rule.FieldRename r -> {
        var out = new java.util.ArrayList<FieldPath>();
        out.add(r.spokePath());
        out.addAll(r.spokeAliases());
        yield out;
      }
      case Rule.ScalarToObject r -> List.of(r.spokePath());
      case Rule.ObjectToScalar r -> List.of(r.spokePath());
      case Rule.SingletonArrayToObject r -> List.of(r.spokePath());
      case Rule.ObjectToSingletonArray r -> List.of(r.spokePath());
      case Rule.FieldsToMap r -> List.of(r.spokeMapPath());
      case Rule.MapToFields r -> r.spokePaths();
      case Rule.ToAnnotation r -> List.of();
      case Rule.ToLabel r -> List.of();
      case Rule.FromAnnotation r -> List.of(r.spokePath());
      case Rule.FromLabel r -> List.of(r.spokePath());
      case Rule.EnumRemap r -> List.of(r.spokePath());
      case Rule.DefaultValue r -> r.existsOn() == ExistsOn.SPOKE ? List.of(r.path()) : List.of();
      case Rule.Constant r -> r.existsOn() == ExistsOn.SPOKE ? List.of(r.path()) : List.of();
      case Rule.Delete r -> r.existsOn() == ExistsOn.SPOKE ? List.of(r.path()) : List.of();
      case Rule.JSONPatch r -> List.of();
      case Rule.ForEach r -> List.of(r.spokeItemsPath());
      case Rule.TypeCoerce r -> List.of(r.path());
      case Rule.ScalarToFields r -> new ArrayList<>(r.spokeFields().values());
      case Rule.FieldsToScalar r -> List.of(r.spokePath());
      case Rule.ArrayToMapByKey r -> List.of(r.spokePath());
      case Rule.MapToArrayByKey r -> List.of(r.spokePath());
      case Rule.NumericScale r -> List.of(r.spokePath());
      case Rule.ListJoin r -> List.of(r.spokePath());
      case Rule.ListSplit r -> List.of(r.spokePath());
      case Rule.Quantity r -> List.of(r.spokePath());
      case Rule.Duration r -> List.of(r.spokePath());
      case Rule.JSONString r -> List.of(r.spokePath());
      case Rule.MapKeyRename r -> List.of(r.spokePath());
      case Rule.CEL r -> r.spokePaths();
    };
  }
}
