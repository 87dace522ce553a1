package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.runtime.TextOp;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import java.util.List;

/** JSONString: a value on one side, the same value written as JSON text on the other. */
final class JsonTextRules {
  private JsonTextRules() {}

  static Resolved jsonString(Scope s, int index, Rule.JSONString r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var hk = Classification.of(hub).kind();
    var sk = Classification.of(spoke).kind();
    boolean hubIsText = hk == LeafKind.STRING && sk != LeafKind.STRING;
    boolean spokeIsText = sk == LeafKind.STRING && hk != LeafKind.STRING;
    if (!hubIsText && !spokeIsText) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(r.hubPath()),
              Scope.label(r)
                  + ": one side must be a string (the JSON text) and the other the value it holds"
                  + " (hub "
                  + s.hubName(r.hubPath())
                  + " is "
                  + hk.wireName()
                  + ", spoke "
                  + s.spokeName(r.spokePath())
                  + " is "
                  + sk.wireName()
                  + ")",
              hk == LeafKind.STRING
                  ? "two strings are the same field: use FieldRename"
                  : "for two values of different shapes use a rule that converts them, or CEL");
      return null;
    }
    // the value side holds a whole subtree; the text is one leaf
    if (!(s.claimHub(r, index, r.hubPath(), !hubIsText)
        & s.claimSpoke(r, index, r.spokePath(), hubIsText))) {
      return null;
    }
    var json = s.tools().json();
    var text = hubIsText ? r.hubPath() : r.spokePath();
    var value = hubIsText ? r.spokePath() : r.hubPath();
    Op toText = new TextOp.ToJsonText(value, text, json);
    Op fromText = new TextOp.FromJsonText(text, value, hubIsText ? sk : hk, json);
    // a value written as text always reads back the same; text read as a value comes back
    // written one way (keys sorted, no spaces), and text that is not JSON is refused
    return new Resolved(
        hubIsText ? fromText : toText,
        hubIsText ? toText : fromText,
        new Verdict(!hubIsText, hubIsText),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }
}
