package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.UnmappedFieldPolicy;
import dev.versio.engine.runtime.KnownTree;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.runtime.Origin;
import dev.versio.engine.runtime.Steps;
import dev.versio.engine.runtime.TopLevelWrites;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.Leaf;
import java.util.ArrayList;
import java.util.List;

/**
 * Compiles one rule list against one pair of schemas (a spoke and the hub, or two array element
 * schemas inside {@code forEach}): resolves every rule, checks acknowledgements, wraps {@code
 * when}, auto-covers identical leaves, fails closed on the rest, and ends with passthrough.
 */
final class SpokeCompiler {
  /** The ops, verdict and findings of one rule list. */
  record Outcome(
      Steps hubToSpoke,
      Steps spokeToHub,
      Verdict verdict,
      List<RuleResult> ruleResults,
      List<String> uncoveredHub,
      List<String> uncoveredSpoke,
      List<String> opaque) {}

  Outcome compile(Scope s, List<Rule> rules) {
    var h2s = new StepList(HUB_TO_SPOKE);
    var s2h = new StepList(SPOKE_TO_HUB);
    var results = new ArrayList<RuleResult>();
    var verdict = Verdict.LOSSLESS;
    for (int i = 0; i < rules.size(); i++) {
      var rule = rules.get(i);
      var at = s.atRule(i);
      int found = at.diagnostics().size();
      var resolved = resolve(at, i, rule);
      if (resolved == null) {
        undeclaredType(at, rule, at.diagnostics().since(found));
        claimQuietly(
            s, i, rule); // the rule's own error says it all: no cascade of "uncovered" findings
        continue;
      }
      var losses = LossSearch.of(at, rule, resolved);
      var rv = losses.verdict();
      if (!rule.options().acknowledgeLossy()) {
        if (!rv.hubToSpoke()) {
          at.diagnostics()
              .error(
                  DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED,
                  first(resolved.hubPaths(), resolved.spokePaths()),
                  Scope.label(rule)
                      + ": hub->spoke conversion is lossy but acknowledgeLossy is not set"
                      + shown(losses.hubToSpoke()),
                  "set acknowledgeLossy: true with a reason, or choose lossless options for rules["
                      + i
                      + "]");
        }
        if (!rv.spokeToHub()) {
          at.diagnostics()
              .error(
                  DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED,
                  first(resolved.spokePaths(), resolved.hubPaths()),
                  Scope.label(rule)
                      + ": spoke->hub conversion is lossy but acknowledgeLossy is not set"
                      + shown(losses.spokeToHub()),
                  "set acknowledgeLossy: true with a reason, or choose lossless options for rules["
                      + i
                      + "]");
        }
      }
      var h = resolved.hubToSpoke();
      var b = resolved.spokeToHub();
      if (rule.options().when().isPresent()) {
        var when = rule.options().when().get();
        var onHub = s.hub().lookup(when.path());
        var onSpoke = s.spokeSchema().lookup(when.path());
        if (!onHub.ok() || !onSpoke.ok()) {
          at.diagnostics()
              .error(
                  DiagnosticCode.WHEN_INVALID,
                  when.path().toString(),
                  Scope.label(rule)
                      + ": when.path "
                      + when.path()
                      + " must resolve in both schemas: "
                      + (onHub.ok() ? "spoke: " + onSpoke.error() : "hub: " + onHub.error()),
                  "gate on a field both versions declare");
          continue;
        }
        var never =
            dev.versio.engine.schema.SchemaConformance.checkValue(
                when.equals(), onHub.node(), when.path().toString());
        if (never.isEmpty()) {
          never =
              dev.versio.engine.schema.SchemaConformance.checkValue(
                  when.equals(), onSpoke.node(), when.path().toString());
        }
        if (!never.isEmpty()) {
          at.diagnostics()
              .error(
                  DiagnosticCode.WHEN_INVALID,
                  when.path().toString(),
                  Scope.label(rule)
                      + ": when.equals "
                      + when.equals()
                      + " can never match: "
                      + never.getFirst().message()
                      + ", so the rule would never run",
                  "give when.equals a value " + when.path() + " can hold (\"1\" is not 1)");
          continue;
        }
        at.diagnostics()
            .warning(
                DiagnosticCode.WHEN_PARTIAL_COVERAGE,
                when.path().toString(),
                Scope.label(rule)
                    + ": applies only when "
                    + when.path()
                    + " equals "
                    + when.equals()
                    + "; for other objects its fields are not written",
                null);
        h = h == null ? null : new Op.When(when.path(), when.equals(), h);
        b = b == null ? null : new Op.When(when.path(), when.equals(), b);
        var gated = LossSearch.whenFalse(at, rule, when, h, b);
        int index = i;
        if (!rule.options().acknowledgeLossy()) {
          gated
              .hubToSpoke()
              .ifPresent(
                  e -> whenLoses(at, rule, index, when, "hub->spoke", resolved.hubPaths(), e));
          gated
              .spokeToHub()
              .ifPresent(
                  e -> whenLoses(at, rule, index, when, "spoke->hub", resolved.spokePaths(), e));
        }
        rv = rv.and(gated.verdict());
        losses = losses.with(gated);
      }
      var origin = origin(s, i, rule);
      if (h != null) {
        h2s.add(h, origin);
      }
      if (b != null) {
        s2h.add(b, origin);
      }
      verdict = verdict.and(rv);
      if (rule.options().acknowledgeLossy() && rv.lossless()) {
        at.diagnostics()
            .warning(
                DiagnosticCode.NEEDLESS_ACKNOWLEDGEMENT,
                first(resolved.hubPaths(), resolved.spokePaths()),
                Scope.label(rule)
                    + ": acknowledgeLossy is set, but the rule loses nothing in either direction;"
                    + " the acknowledgement would hide a loss a later change brings",
                "remove acknowledgeLossy (and its reason) from rules[" + i + "]");
      }
      results.add(
          new RuleResult(
              i,
              rule.strategy(),
              resolved.hubPaths(),
              resolved.spokePaths(),
              rv,
              rule.options().acknowledgeLossy(),
              losses.counterexamples()));
    }
    var uncoveredHub = new ArrayList<String>();
    var uncoveredSpoke = new ArrayList<String>();
    var opaque = new ArrayList<String>();
    verdict = cover(s, h2s, s2h, verdict, uncoveredHub, uncoveredSpoke, opaque);
    var known = KnownTree.of(s.hub().root(), s.spokeSchema().root());
    var passthrough = new Origin(s.spoke(), s.parent(), -1, "passthrough", null);
    h2s.add(new Op.Passthrough(known, true), passthrough);
    s2h.add(new Op.Passthrough(known, false), passthrough);
    return new Outcome(
        h2s.build(), s2h.build(), verdict, results, uncoveredHub, uncoveredSpoke, opaque);
  }

  /**
   * A rule gated by {@code when} drops the fields it reads where the condition is false, and its
   * verdict said nothing about it: an error unless acknowledged.
   */
  private static void whenLoses(
      Scope at,
      Rule rule,
      int index,
      dev.versio.engine.rule.RuleOptions.When when,
      String direction,
      List<String> paths,
      Counterexample example) {
    at.diagnostics()
        .error(
            DiagnosticCode.LOSSY_NOT_ACKNOWLEDGED,
            paths.isEmpty() ? when.path().toString() : paths.getFirst(),
            Scope.label(rule)
                + ": "
                + direction
                + " conversion is lossy: on objects where "
                + when.path()
                + " is not "
                + when.equals()
                + " the rule does not run and the fields it reads are dropped; e.g. "
                + example.describe(),
            "set acknowledgeLossy: true with a reason if those objects never carry the fields, or"
                + " convert both cases in one rule (CEL) instead of gating rules["
                + index
                + "] with when");
  }

  /**
   * After a rule failed on a field's type: when the field lies inside an opaque schema, says that
   * its type is not declared rather than leaving the user with a type the schema never gave it.
   */
  private static void undeclaredType(
      Scope s, Rule rule, List<dev.versio.engine.diagnostic.Diagnostic> found) {
    if (found.stream()
        .noneMatch(
            d ->
                d.code() == DiagnosticCode.TYPE_MISMATCH
                    || d.code() == DiagnosticCode.SHAPE_MISMATCH)) {
      return;
    }
    var hub = RulePaths.hub(rule).stream().map(p -> undeclared(s.hub(), p, s.hubName(p)));
    var spoke =
        RulePaths.spoke(rule).stream().map(p -> undeclared(s.spokeSchema(), p, s.spokeName(p)));
    var undeclared =
        java.util.stream.Stream.concat(hub, spoke).flatMap(java.util.Optional::stream).toList();
    // the field the failure names, else the first the schema does not declare
    undeclared.stream()
        .filter(u -> found.stream().anyMatch(d -> u[0].equals(d.path())))
        .findFirst()
        .or(() -> undeclared.stream().findFirst())
        .ifPresent(
            u ->
                s.diagnostics()
                    .error(
                        DiagnosticCode.TYPE_NOT_DECLARED,
                        u[0],
                        Scope.label(rule)
                            + ": "
                            + u[0]
                            + " lies inside "
                            + u[1]
                            + ", which keeps unknown fields (x-kubernetes-preserve-unknown-fields),"
                            + " so its type is not declared and this strategy cannot know what it"
                            + " converts",
                        "declare "
                            + u[0]
                            + " among the properties of "
                            + u[1]
                            + " (declared fields sit beside unknown ones), or convert it with"
                            + " CEL"));
  }

  /** {@code [name, opaque field]} when the path runs below an opaque node it is not declared in. */
  private static java.util.Optional<String[]> undeclared(
      dev.versio.engine.schema.FlatSchema schema, FieldPath path, String name) {
    var lookup = schema.lookup(path);
    return lookup.belowOpaque()
        ? java.util.Optional.of(new String[] {name, lookup.opaqueAt().toString()})
        : java.util.Optional.empty();
  }

  private Resolved resolve(Scope s, int i, Rule rule) {
    return switch (rule) {
      case Rule.FieldRename r -> ShapeRules.fieldRename(s, i, r);
      case Rule.ScalarToObject r -> ShapeRules.scalarToObject(s, i, r);
      case Rule.ObjectToScalar r -> ShapeRules.objectToScalar(s, i, r);
      case Rule.SingletonArrayToObject r -> ShapeRules.singletonArrayToObject(s, i, r);
      case Rule.ObjectToSingletonArray r -> ShapeRules.objectToSingletonArray(s, i, r);
      case Rule.FieldsToMap r -> ShapeRules.fieldsToMap(s, i, r);
      case Rule.MapToFields r -> ShapeRules.mapToFields(s, i, r);
      case Rule.ToAnnotation r -> MetadataRules.toAnnotation(s, i, r);
      case Rule.ToLabel r -> MetadataRules.toLabel(s, i, r);
      case Rule.FromAnnotation r -> MetadataRules.fromAnnotation(s, i, r);
      case Rule.FromLabel r -> MetadataRules.fromLabel(s, i, r);
      case Rule.EnumRemap r -> ValueRules.enumRemap(s, i, r);
      case Rule.DefaultValue r ->
          ValueRules.inject(s, i, r, r.path(), r.existsOn(), r.defaultValue());
      case Rule.Constant r -> ValueRules.inject(s, i, r, r.path(), r.existsOn(), r.value());
      case Rule.Delete r -> ValueRules.delete(s, i, r);
      case Rule.ForEach r -> forEach(s, i, r);
      case Rule.JSONPatch r -> ScriptRules.jsonPatch(s, i, r);
      case Rule.TypeCoerce r -> ScalarRules.typeCoerce(s, i, r);
      case Rule.ScalarToFields r -> TextRules.scalarToFields(s, i, r);
      case Rule.FieldsToScalar r -> TextRules.fieldsToScalar(s, i, r);
      case Rule.ArrayToMapByKey r -> CollectionRules.arrayToMapByKey(s, i, r);
      case Rule.MapToArrayByKey r -> CollectionRules.mapToArrayByKey(s, i, r);
      case Rule.NumericScale r -> ScalarRules.numericScale(s, i, r);
      case Rule.ListJoin r -> CollectionRules.listJoin(s, i, r);
      case Rule.ListSplit r -> CollectionRules.listSplit(s, i, r);
      case Rule.Quantity r -> ScalarRules.quantity(s, i, r);
      case Rule.Duration r -> ScalarRules.duration(s, i, r);
      case Rule.JSONString r -> JsonTextRules.jsonString(s, i, r);
      case Rule.MapKeyRename r -> CollectionRules.mapKeyRename(s, i, r);
      case Rule.CEL r -> ScriptRules.cel(s, i, r);
    };
  }

  private static void claimQuietly(Scope s, int index, Rule rule) {
    RulePaths.hub(rule).forEach(p -> s.hubClaims().claimSubtree(p, index));
    RulePaths.spoke(rule).forEach(p -> s.spokeClaims().claimSubtree(p, index));
  }

  private Resolved forEach(Scope s, int i, Rule.ForEach r) {
    var hub = s.hubNode(r, r.hubItemsPath());
    var spoke = s.spokeNode(r, r.spokeItemsPath());
    if (hub == null || spoke == null) {
      return null;
    }
    if (hub.items() == null
        || spoke.items() == null
        || !Classification.of(hub.items()).structured()
        || !Classification.of(spoke.items()).structured()) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(r.hubItemsPath()),
              Scope.label(r)
                  + ": both items paths must resolve to arrays of objects with declared properties ("
                  + s.hubName(r.hubItemsPath())
                  + ", "
                  + s.spokeName(r.spokeItemsPath())
                  + ")",
              "ForEach works on arrays of objects; for arrays of scalars use ListJoin/ListSplit or TypeCoerce on the whole field");
      return null;
    }
    if (!(s.claimHub(r, i, r.hubItemsPath(), true)
        & s.claimSpoke(r, i, r.spokeItemsPath(), true))) {
      return null;
    }
    var nested =
        s.element(
            origin(s, i, r),
            hub.items(),
            spoke.items(),
            r.hubItemsPath(),
            r.spokeItemsPath(),
            s.diagnostics());
    var outcome = compile(nested, r.rules());
    var keys = ElementIds.keyFields(hub, spoke);
    var json = s.tools().json();
    var forth =
        new Op.ForEach(r.hubItemsPath(), r.spokeItemsPath(), outcome.hubToSpoke(), keys, json);
    var back =
        new Op.ForEach(r.spokeItemsPath(), r.hubItemsPath(), outcome.spokeToHub(), keys, json);
    if (keys.isEmpty() && TopLevelWrites.keepsElements(forth)) {
      s.diagnostics()
          .warning(
              DiagnosticCode.ELEMENTS_KEPT_BY_POSITION,
              s.hubName(r.hubItemsPath()),
              Scope.label(r)
                  + ": the values its elements keep in annotations are keyed by position, as "
                  + s.hubName(r.hubItemsPath())
                  + " declares no x-kubernetes-list-map-keys on both versions; a client that"
                  + " reorders or removes elements at one version gets another element's values"
                  + " back",
              "declare x-kubernetes-list-type: map with the same x-kubernetes-list-map-keys on"
                  + " both versions to key them by element");
    }
    return new Resolved(
        forth,
        back,
        outcome.verdict(),
        List.of(s.hubName(r.hubItemsPath())),
        List.of(s.spokeName(r.spokeItemsPath())));
  }

  /**
   * Auto-covers identical leaves and reports the rest; returns the verdict with coverage applied.
   */
  private Verdict cover(
      Scope s,
      StepList h2s,
      StepList s2h,
      Verdict verdict,
      List<String> uncoveredHub,
      List<String> uncoveredSpoke,
      List<String> opaque) {
    var d = s.depth() == 0 ? s.diagnostics().withoutRule() : s.diagnostics();
    boolean hubLossless = verdict.hubToSpoke();
    boolean spokeLossless = verdict.spokeToHub();
    for (var leaf : s.hub().leaves().values()) {
      if (s.hubClaims().isClaimed(leaf.path())) {
        continue;
      }
      var twin = s.spokeSchema().leaf(leaf.path()).orElse(null);
      if (twin != null
          && !s.spokeClaims().isClaimed(leaf.path())
          && twin.shape().equals(leaf.shape())) {
        s.hubClaims().claim(leaf.path(), -1);
        s.spokeClaims().claim(leaf.path(), -1);
        if (leaf.node().preserveUnknownFields()) {
          opaque.add(s.hubName(leaf.path()));
        }
        if (!leaf.path().throughItems() && !(s.depth() == 0 && stampedByPlan(leaf.path()))) {
          var at = new Origin(s.spoke(), s.parent(), -1, "identity", leaf.path());
          var belowHub = s.hubClaims().claimedBelow(leaf.path());
          var belowSpoke = s.spokeClaims().claimedBelow(leaf.path());
          if (belowHub.isEmpty() && belowSpoke.isEmpty()) {
            // one op and one origin serve both directions: identity is direction-agnostic
            var copy = new Op.Copy(leaf.path(), leaf.path());
            h2s.add(copy, at);
            s2h.add(copy, at);
          } else {
            // rules convert fields inside a node that keeps unknown fields: the rest is copied
            h2s.add(new Op.CopyExcept(leaf.path(), leaf.path(), belowHub), at);
            s2h.add(new Op.CopyExcept(leaf.path(), leaf.path(), belowSpoke), at);
          }
        }
        continue;
      }
      uncoveredHub.add(s.hubName(leaf.path()));
      hubLossless &= report(s, d, "hub", leaf, twin);
    }
    for (var leaf : s.spokeSchema().leaves().values()) {
      if (s.spokeClaims().isClaimed(leaf.path())) {
        continue;
      }
      uncoveredSpoke.add(s.spokeName(leaf.path()));
      spokeLossless &= report(s, d, "spoke", leaf, s.hub().leaf(leaf.path()).orElse(null));
    }
    return new Verdict(hubLossless, spokeLossless);
  }

  /**
   * Whether {@code path} is a top-level field every conversion carries over itself ({@link
   * Plan#toSpoke} copies {@code apiVersion} and {@code kind} before any op runs), so an identity op
   * for it would only copy it a second time.
   */
  private static boolean stampedByPlan(FieldPath path) {
    return path.size() == 1 && (path.last().equals("apiVersion") || path.last().equals("kind"));
  }

  /** Reports one uncovered leaf; returns whether the direction stays lossless (only under Warn). */
  private static boolean report(Scope s, Diagnostics d, String side, Leaf leaf, Leaf twin) {
    var name = side.equals("hub") ? s.hubName(leaf.path()) : s.spokeName(leaf.path());
    var other = side.equals("hub") ? "spoke" : "hub";
    String message;
    String hint;
    if (twin != null && !twin.shape().equals(leaf.shape())) {
      message =
          side
              + " field "
              + name
              + " is "
              + leaf.describe()
              + " but the "
              + other
              + " field of the same path is "
              + twin.describe();
      hint = hintFor(leaf, twin);
    } else {
      message =
          side
              + " field "
              + name
              + " is not covered by any rule and has no identical counterpart in the "
              + other
              + " schema"
              + (leaf.construct() != null
                  ? " (sits inside a "
                      + leaf.construct()
                      + " schema construct the engine treats opaquely)"
                  : "");
      hint =
          leaf.path().throughItems()
              ? forEachHint(leaf)
              : side.equals("hub")
                  ? "add a rule that claims "
                      + name
                      + " (FieldRename to its new name, ToAnnotation to keep it, or Delete with acknowledgeLossy)"
                  : "add a rule that claims "
                      + name
                      + " (FieldRename from its old name, DefaultValue/Constant, FromAnnotation, or Delete with acknowledgeLossy)";
    }
    if (s.policy() == UnmappedFieldPolicy.WARN) {
      d.warning(
          DiagnosticCode.UNCOVERED_FIELD_DROPPED,
          name,
          message + "; it is dropped by conversion (unmappedFieldPolicy: Warn)",
          hint);
      return true;
    }
    d.error(DiagnosticCode.UNCOVERED_FIELD, name, message, hint);
    return false;
  }

  private static String hintFor(Leaf leaf, Leaf twin) {
    if (leaf.path().throughItems()) {
      var arrayPath =
          leaf.path().segments().subList(0, leaf.path().segments().indexOf(FieldPath.ITEMS));
      return "add a ForEach over "
          + String.join(".", arrayPath)
          + " with a rule for the element field";
    }
    if (!leaf.node().enumValues().isEmpty() || !twin.node().enumValues().isEmpty()) {
      return "add an EnumRemap rule for " + leaf.path();
    }
    if (leaf.kind() != twin.kind()) {
      return "add a TypeCoerce rule for "
          + leaf.path()
          + " (or another rule that converts its values)";
    }
    return "add a rule that converts " + leaf.path() + " between the two shapes";
  }

  private static final String HUB_TO_SPOKE = "hub->spoke";
  private static final String SPOKE_TO_HUB = "spoke->hub";

  private static Origin origin(Scope s, int index, Rule rule) {
    var hub = RulePaths.hub(rule);
    var spoke = RulePaths.spoke(rule);
    var path = !hub.isEmpty() ? hub.getFirst() : (!spoke.isEmpty() ? spoke.getFirst() : null);
    return new Origin(s.spoke(), s.parent(), index, rule.strategy().wireName(), path);
  }

  /** Ops of one direction with their origins, in order. */
  private static final class StepList {
    private final String direction;
    private final List<Op> ops = new ArrayList<>();
    private final List<Origin> origins = new ArrayList<>();

    StepList(String direction) {
      this.direction = direction;
    }

    void add(Op op, Origin origin) {
      ops.add(op);
      origins.add(origin);
    }

    Steps build() {
      return new Steps(direction, ops, origins);
    }
  }

  private static String forEachHint(Leaf leaf) {
    var arrayPath =
        leaf.path().segments().subList(0, leaf.path().segments().indexOf(FieldPath.ITEMS));
    return "add a ForEach over "
        + String.join(".", arrayPath)
        + " with a rule for the element field";
  }

  /** {@code ", e.g. <counterexample>"}, or a note that none was found. */
  private static String shown(java.util.Optional<Counterexample> example) {
    return example
        .map(e -> "; e.g. " + e.describe())
        .orElse(
            " (no counterexample found among the values tried; the engine cannot show it keeps every value)");
  }

  private static String first(List<String> a, List<String> b) {
    return !a.isEmpty() ? a.getFirst() : (!b.isEmpty() ? b.getFirst() : null);
  }
}
