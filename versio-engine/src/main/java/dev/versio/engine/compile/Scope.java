package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.diagnostic.Diagnostics;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.UnmappedFieldPolicy;
import dev.versio.engine.runtime.Origin;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.SchemaNode;

/**
 * What one rule list is compiled against: the hub and spoke schemas (the whole object, or one array
 * element inside {@code forEach}), the claims so far, and where diagnostics go.
 *
 * @param hubPrefix shown before hub paths in messages (e.g. {@code spec.pools[].} inside forEach)
 * @param probes the probe texts found so far, shared by every rule of one spoke's compile
 */
record Scope(
    String spoke,
    FlatSchema hub,
    FlatSchema spokeSchema,
    Claims hubClaims,
    Claims spokeClaims,
    String hubPrefix,
    String spokePrefix,
    UnmappedFieldPolicy policy,
    int depth,
    Origin parent,
    Diagnostics diagnostics,
    Tools tools,
    ProbeCache probes) {

  static Scope top(
      String spoke,
      SchemaNode hub,
      SchemaNode spokeRoot,
      UnmappedFieldPolicy policy,
      Diagnostics d,
      Tools tools) {
    var hubFlat = FlatSchema.of(hub);
    var spokeFlat = FlatSchema.of(spokeRoot);
    return new Scope(
        spoke,
        hubFlat,
        spokeFlat,
        new Claims(hubFlat),
        new Claims(spokeFlat),
        "",
        "",
        policy,
        0,
        null,
        d,
        tools,
        new ProbeCache());
  }

  /** The scope of one array element, for the nested rules of a {@code forEach}. */
  Scope element(
      Origin forEach,
      SchemaNode hubItems,
      SchemaNode spokeItems,
      FieldPath hubItemsPath,
      FieldPath spokeItemsPath,
      Diagnostics nested) {
    var hubFlat = FlatSchema.of(hubItems);
    var spokeFlat = FlatSchema.of(spokeItems);
    return new Scope(
        spoke,
        hubFlat,
        spokeFlat,
        new Claims(hubFlat),
        new Claims(spokeFlat),
        hubPrefix + hubItemsPath + "[].",
        spokePrefix + spokeItemsPath + "[].",
        policy,
        depth + 1,
        forEach,
        nested,
        tools,
        probes);
  }

  /** The same scope with diagnostics positioned at rule {@code index}. */
  Scope atRule(int index) {
    return new Scope(
        spoke,
        hub,
        spokeSchema,
        hubClaims,
        spokeClaims,
        hubPrefix,
        spokePrefix,
        policy,
        depth,
        parent,
        diagnostics.atRule(index),
        tools,
        probes);
  }

  String hubName(FieldPath path) {
    return hubPrefix + path;
  }

  String spokeName(FieldPath path) {
    return spokePrefix + path;
  }

  /** Resolves a hub path; on failure reports PATH_NOT_FOUND and returns null. */
  SchemaNode hubNode(Rule rule, FieldPath path) {
    var lookup = hub.lookup(path);
    if (!lookup.ok()) {
      diagnostics.error(
          DiagnosticCode.PATH_NOT_FOUND,
          hubName(path),
          label(rule) + ": hub path " + hubName(path) + " does not resolve: " + lookup.error(),
          "fix the path, or check that the hub schema declares it");
      return null;
    }
    return lookup.node();
  }

  /** Resolves a spoke path; on failure reports PATH_NOT_FOUND and returns null. */
  SchemaNode spokeNode(Rule rule, FieldPath path) {
    var lookup = spokeSchema.lookup(path);
    if (!lookup.ok()) {
      diagnostics.error(
          DiagnosticCode.PATH_NOT_FOUND,
          spokeName(path),
          label(rule) + ": spoke path " + spokeName(path) + " does not resolve: " + lookup.error(),
          "fix the path, or check that the spoke " + spoke + " schema declares it");
      return null;
    }
    return lookup.node();
  }

  /** Claims a hub path (exact or subtree); reports a double claim. Returns false on a clash. */
  boolean claimHub(Rule rule, int index, FieldPath path, boolean subtree) {
    var clash = subtree ? hubClaims.claimSubtree(path, index) : hubClaims.claim(path, index);
    return clash == null || reportClash(rule, clash, "hub", hubName(path)); // named on a clash only
  }

  boolean claimSpoke(Rule rule, int index, FieldPath path, boolean subtree) {
    var clash = subtree ? spokeClaims.claimSubtree(path, index) : spokeClaims.claim(path, index);
    return clash == null
        || reportClash(rule, clash, "spoke", spokeName(path)); // named on a clash only
  }

  private boolean reportClash(Rule rule, Integer clash, String side, String path) {
    if (clash == null) {
      return true;
    }
    diagnostics.error(
        DiagnosticCode.DOUBLE_CLAIM,
        path,
        label(rule)
            + ": "
            + side
            + " field "
            + path
            + " is already claimed by "
            + (clash < 0 ? "an identical field" : "rules[" + clash + "]"),
        "let one rule own " + path + "; remove it from the other rule");
    return false;
  }

  static String label(Rule rule) {
    return "rule (" + rule.strategy().wireName() + ")";
  }
}
