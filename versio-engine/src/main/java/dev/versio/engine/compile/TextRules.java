package dev.versio.engine.compile;

import com.google.re2j.Pattern;
import com.google.re2j.PatternSyntaxException;
import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.Coercion;
import dev.versio.engine.runtime.JoinTemplate;
import dev.versio.engine.runtime.TextOp;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;

/** ScalarToFields and FieldsToScalar: one string ⇄ several fields, by a pattern and a template. */
final class TextRules {
  private static final java.util.regex.Pattern GROUP_NAME =
      java.util.regex.Pattern.compile("\\(\\?P<([A-Za-z_][A-Za-z0-9_]*)>");

  private TextRules() {}

  static Resolved scalarToFields(Scope s, int index, Rule.ScalarToFields r) {
    var text = s.hubNode(r, r.hubPath());
    var text2 =
        textOps(
            s,
            r,
            r.hubPath(),
            s.hubName(r.hubPath()),
            text,
            r.pattern(),
            r.joinTemplate(),
            r.spokeFields(),
            false);
    if (text2 == null) {
      return null;
    }
    boolean ok = s.claimHub(r, index, r.hubPath(), false);
    for (var path : r.spokeFields().values()) {
      ok &= s.claimSpoke(r, index, path, false);
    }
    if (!ok) {
      return null;
    }
    warnUnverifiable(s, r);
    return new Resolved(
        text2.split(),
        text2.join(),
        new Verdict(r.losslessOverride(), r.losslessOverride()),
        List.of(s.hubName(r.hubPath())),
        r.spokeFields().values().stream().map(s::spokeName).toList());
  }

  static Resolved fieldsToScalar(Scope s, int index, Rule.FieldsToScalar r) {
    var text = s.spokeNode(r, r.spokePath());
    var text2 =
        textOps(
            s,
            r,
            r.spokePath(),
            s.spokeName(r.spokePath()),
            text,
            r.pattern(),
            r.joinTemplate(),
            r.hubFields(),
            true);
    if (text2 == null) {
      return null;
    }
    boolean ok = s.claimSpoke(r, index, r.spokePath(), false);
    for (var path : r.hubFields().values()) {
      ok &= s.claimHub(r, index, path, false);
    }
    if (!ok) {
      return null;
    }
    warnUnverifiable(s, r);
    return new Resolved(
        text2.join(),
        text2.split(),
        new Verdict(r.losslessOverride(), r.losslessOverride()),
        r.hubFields().values().stream().map(s::hubName).toList(),
        List.of(s.spokeName(r.spokePath())));
  }

  private record Ops(TextOp.SplitScalar split, TextOp.JoinFields join) {}

  /** Validates pattern, template and fields; null (with diagnostics) on any problem. */
  private static Ops textOps(
      Scope s,
      Rule r,
      FieldPath textPath,
      String textName,
      SchemaNode text,
      String patternText,
      String templateText,
      Map<String, FieldPath> fields,
      boolean fieldsOnHub) {
    boolean ok = text != null;
    if (text != null && Classification.of(text).kind() != LeafKind.STRING) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              textName,
              Scope.label(r) + ": " + textName + " must be a string",
              null);
      ok = false;
    }
    Pattern pattern = null;
    var groups = new ArrayList<String>();
    try {
      pattern = Pattern.compile(patternText);
      Matcher m = GROUP_NAME.matcher(patternText);
      while (m.find()) {
        groups.add(m.group(1));
      }
    } catch (PatternSyntaxException e) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              textName,
              Scope.label(r) + ": pattern does not compile: " + e.getMessage(),
              "use RE2 syntax with named groups, e.g. ^(?P<repo>[^:]+):(?P<tag>.+)$");
      ok = false;
    }
    JoinTemplate template = null;
    try {
      template = JoinTemplate.parse(templateText);
    } catch (IllegalArgumentException e) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              textName,
              Scope.label(r) + ": " + e.getMessage(),
              "write the template as literal text with {{.name}} placeholders only");
      ok = false;
    }
    var split = new ArrayList<TextOp.Field>();
    for (var e : fields.entrySet()) {
      var node = fieldsOnHub ? s.hubNode(r, e.getValue()) : s.spokeNode(r, e.getValue());
      var name = fieldsOnHub ? s.hubName(e.getValue()) : s.spokeName(e.getValue());
      if (node == null) {
        ok = false;
        continue;
      }
      var kind = Classification.of(node).kind();
      if (!Coercion.coercible(kind)) {
        s.diagnostics()
            .error(
                DiagnosticCode.TYPE_MISMATCH,
                name,
                Scope.label(r) + ": " + name + " must be a string, integer, number or boolean",
                null);
        ok = false;
      }
      if (pattern != null && !groups.contains(e.getKey())) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                name,
                Scope.label(r)
                    + ": '"
                    + e.getKey()
                    + "' is not a named group of the pattern (groups: "
                    + groups
                    + ")",
                "add (?P<" + e.getKey() + ">...) to the pattern");
        ok = false;
      }
      if (template != null && !template.names().contains(e.getKey())) {
        s.diagnostics()
            .error(
                DiagnosticCode.INVALID_PARAM,
                name,
                Scope.label(r)
                    + ": joinTemplate does not use ."
                    + e.getKey()
                    + ", so "
                    + name
                    + " would be dropped on the way back",
                "add {{." + e.getKey() + "}} to joinTemplate");
        ok = false;
      }
      split.add(new TextOp.Field(e.getKey(), e.getValue(), kind));
    }
    if (template != null) {
      for (var name : template.names()) {
        if (!fields.containsKey(name)) {
          s.diagnostics()
              .error(
                  DiagnosticCode.INVALID_PARAM,
                  textName,
                  Scope.label(r)
                      + ": joinTemplate uses ."
                      + name
                      + ", which names no field (fields: "
                      + fields.keySet()
                      + ")",
                  "add " + name + " to the fields, or remove it from the template");
          ok = false;
        }
      }
    }
    if (!ok) {
      return null;
    }
    return new Ops(
        new TextOp.SplitScalar(textPath, pattern, split),
        new TextOp.JoinFields(template, fields, textPath));
  }

  private static void warnUnverifiable(Scope s, Rule r) {
    s.diagnostics()
        .warning(
            DiagnosticCode.UNVERIFIABLE_INVERSE,
            null,
            Scope.label(r)
                + ": the engine cannot verify that the pattern and joinTemplate are true inverses",
            "cover it with samples in versio test");
  }
}
