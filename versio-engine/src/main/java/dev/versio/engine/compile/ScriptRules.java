package dev.versio.engine.compile;

import com.fasterxml.jackson.databind.JsonNode;
import com.flipkart.zjsonpatch.InvalidJsonPatchException;
import com.flipkart.zjsonpatch.JsonPatch;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.ScriptOp;
import dev.versio.engine.schema.FlatSchema;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The escape hatches: JSONPatch and CEL. Both are opaque to the engine, so it warns or demands
 * acknowledgement.
 */
final class ScriptRules {
  private ScriptRules() {}

  static Resolved jsonPatch(Scope s, int index, Rule.JSONPatch r) {
    var h2s = patchPaths(s, r, "hubToSpoke", r.hubToSpoke());
    var s2h = patchPaths(s, r, "spokeToHub", r.spokeToHub());
    if (h2s == null || s2h == null) {
      return null;
    }
    var all = new LinkedHashSet<FieldPath>();
    all.addAll(h2s.touched());
    all.addAll(s2h.touched());
    boolean ok = true;
    for (var path :
        all) { // every path of either direction, on both sides (an intentional over-claim)
      if (s.hub().lookup(path).ok()) {
        ok &= s.claimHub(r, index, path, true);
      }
      if (s.spokeSchema().lookup(path).ok()) {
        ok &= s.claimSpoke(r, index, path, true);
      }
    }
    // checked once its paths are claimed, so that a refusal does not also leave them uncovered
    ok &= writesDeclared(s, r, "hubToSpoke", r.hubToSpoke(), s.spokeSchema(), s::spokeName);
    ok &= writesDeclared(s, r, "spokeToHub", r.spokeToHub(), s.hub(), s::hubName);
    if (!ok) {
      return null;
    }
    s.diagnostics()
        .warning(
            DiagnosticCode.UNVERIFIABLE_INVERSE,
            null,
            Scope.label(r)
                + ": the engine cannot verify what this patch does; it trusts losslessOverride ("
                + r.losslessOverride()
                + ")",
            "cover it with samples in versio test");
    return new Resolved(
        new ScriptOp.Patch(r.hubToSpoke(), h2s.written()),
        new ScriptOp.Patch(r.spokeToHub(), s2h.written()),
        new Verdict(r.losslessOverride(), r.losslessOverride()),
        all.stream().filter(p -> s.hub().lookup(p).ok()).map(s::hubName).toList(),
        all.stream().filter(p -> s.spokeSchema().lookup(p).ok()).map(s::spokeName).toList());
  }

  private record PatchPaths(List<FieldPath> written, List<FieldPath> touched) {}

  private static PatchPaths patchPaths(Scope s, Rule r, String direction, JsonNode patch) {
    if (!patch.isArray()) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              null,
              Scope.label(r)
                  + ": jsonPatch."
                  + direction
                  + " must be a list of RFC 6902 operations",
              null);
      return null;
    }
    try {
      JsonPatch.validate(patch);
    } catch (InvalidJsonPatchException e) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              null,
              Scope.label(r)
                  + ": jsonPatch."
                  + direction
                  + " is not a valid RFC 6902 patch: "
                  + e.getMessage(),
              null);
      return null;
    }
    var written = new ArrayList<FieldPath>();
    var touched = new ArrayList<FieldPath>();
    boolean ok = true;
    for (var op : patch) {
      for (var key : List.of("path", "from")) {
        if (!op.has(key)) {
          continue;
        }
        var pointer = op.get(key).asText();
        var path = fromPointer(pointer);
        if (path == null || !(resolves(s.hub(), path) || resolves(s.spokeSchema(), path))) {
          s.diagnostics()
              .error(
                  DiagnosticCode.PATH_NOT_FOUND,
                  pointer,
                  Scope.label(r)
                      + ": jsonPatch."
                      + direction
                      + " "
                      + key
                      + " "
                      + pointer
                      + " names no declared field of either version (array elements cannot be addressed)",
                  "patch object fields; use ForEach for array elements");
          ok = false;
          continue;
        }
        touched.add(path);
        if (key.equals("path") && !written.contains(path)) {
          written.add(path);
        }
      }
    }
    return ok ? new PatchPaths(written, touched) : null;
  }

  /**
   * Whether every field the patch leaves a value at is one the destination declares: a value
   * written elsewhere would be dropped by the apiserver (pruned), so it is an error, not a silent
   * loss. A field the patch moves or removes again later is only a stepping stone.
   */
  private static boolean writesDeclared(
      Scope s,
      Rule r,
      String direction,
      JsonNode patch,
      FlatSchema destination,
      java.util.function.Function<FieldPath, String> name) {
    boolean ok = true;
    var ops = new ArrayList<JsonNode>();
    patch.forEach(ops::add);
    for (int i = 0; i < ops.size(); i++) {
      var op = ops.get(i).path("op").asText();
      if (!List.of("add", "replace", "copy", "move").contains(op)) {
        continue;
      }
      var pointer = ops.get(i).path("path").asText();
      var path = fromPointer(pointer);
      if (path == null || resolves(destination, path) || takenAgain(ops, i, pointer)) {
        continue;
      }
      s.diagnostics()
          .error(
              DiagnosticCode.PATH_NOT_FOUND,
              name.apply(path),
              Scope.label(r)
                  + ": jsonPatch."
                  + direction
                  + " writes "
                  + pointer
                  + ", which the destination version does not declare: the apiserver would drop"
                  + " it",
              "write a field the destination declares, or move the value on to one in a later op");
      ok = false;
    }
    return ok;
  }

  /** Whether a later op moves or removes what op {@code i} wrote at {@code pointer}. */
  private static boolean takenAgain(List<JsonNode> ops, int i, String pointer) {
    for (int j = i + 1; j < ops.size(); j++) {
      var op = ops.get(j).path("op").asText();
      if ((op.equals("move") && pointer.equals(ops.get(j).path("from").asText()))
          || (op.equals("remove") && pointer.equals(ops.get(j).path("path").asText()))) {
        return true;
      }
    }
    return false;
  }

  private static boolean resolves(FlatSchema schema, FieldPath path) {
    return schema.lookup(path).ok();
  }

  /** An RFC 6901 pointer as a field path ({@code /spec/a~1b} → spec."a/b"); null for the root. */
  private static FieldPath fromPointer(String pointer) {
    if (!pointer.startsWith("/") || pointer.length() < 2) {
      return null;
    }
    var segments = new ArrayList<String>();
    for (var raw : pointer.substring(1).split("/", -1)) {
      if (raw.isEmpty()) {
        return null;
      }
      segments.add(raw.replace("~1", "/").replace("~0", "~"));
    }
    return new FieldPath(segments);
  }

  /** The destinations whose schema says {@code nullable: true}: a CEL null is written there. */
  private static java.util.Set<FieldPath> nullable(
      List<FieldPath> paths, java.util.function.Function<FieldPath, SchemaNode> node) {
    var out = new java.util.HashSet<FieldPath>();
    for (var p : paths) {
      var n = node.apply(p);
      if (n != null && n.nullable()) {
        out.add(p);
      }
    }
    return out;
  }

  static Resolved cel(Scope s, int index, Rule.CEL r) {
    boolean ok = true;
    for (var p : r.hubPaths()) {
      ok &= s.hubNode(r, p) != null;
    }
    for (var p : r.spokePaths()) {
      ok &= s.spokeNode(r, p) != null;
    }
    var h2s = compile(s, r, "hubToSpoke", r.hubToSpoke(), s.hub());
    var s2h = compile(s, r, "spokeToHub", r.spokeToHub(), s.spokeSchema());
    if (!ok || h2s == null || s2h == null) {
      return null;
    }
    for (var p : r.hubPaths()) {
      ok &= s.claimHub(r, index, p, true);
    }
    for (var p : r.spokePaths()) {
      ok &= s.claimSpoke(r, index, p, true);
    }
    if (!ok) {
      return null;
    }
    return new Resolved(
        new ScriptOp.Cel(
            r.hubToSpoke(),
            h2s.program(),
            r.hubPaths(),
            r.spokePaths(),
            nullable(r.spokePaths(), p -> s.spokeNode(r, p)),
            CelScripts.COST_LIMIT,
            CelScripts.SIZE_LIMIT),
        new ScriptOp.Cel(
            r.spokeToHub(),
            s2h.program(),
            r.spokePaths(),
            r.hubPaths(),
            nullable(r.hubPaths(), p -> s.hubNode(r, p)),
            CelScripts.COST_LIMIT,
            CelScripts.SIZE_LIMIT),
        new Verdict(false, false),
        r.hubPaths().stream().map(s::hubName).toList(),
        r.spokePaths().stream().map(s::spokeName).toList());
  }

  /**
   * Compiles one expression and checks every {@code object.a.b} it reads against the source schema.
   */
  private static CelScripts.Compiled compile(
      Scope s, Rule r, String direction, String expression, FlatSchema source) {
    var compiled = s.tools().cel().compile(expression);
    if (compiled.error() != null) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              null,
              Scope.label(r)
                  + ": cel."
                  + direction
                  + " does not compile: "
                  + dev.versio.engine.runtime.CelMessages.compile(expression, compiled.error()),
              "the expression sees the input as `object` and must produce a map of destination paths");
      return null;
    }
    boolean ok = true;
    for (var read : compiled.reads()) {
      var problem = unreadable(source, read);
      if (problem != null) {
        s.diagnostics()
            .error(
                DiagnosticCode.PATH_NOT_FOUND,
                read.toString(),
                Scope.label(r)
                    + ": cel."
                    + direction
                    + " reads object."
                    + read
                    + ", but "
                    + problem,
                null);
        ok = false;
      }
    }
    return ok ? compiled : null;
  }

  /**
   * Why {@code path} cannot be read from objects of {@code schema}, or null when it can (or may).
   */
  private static String unreadable(FlatSchema schema, FieldPath path) {
    // walk as far as the schema declares structure; below a map or opaque node anything may exist
    for (int i = 1; i <= path.size(); i++) {
      var prefix = new FieldPath(path.segments().subList(0, i));
      var lookup = schema.lookup(prefix);
      if (!lookup.ok()) {
        var parent = schema.lookup(prefix.parent());
        if (parent.ok() && !parent.classification().structured()) {
          return null;
        }
        return lookup.error();
      }
    }
    return null;
  }
}
