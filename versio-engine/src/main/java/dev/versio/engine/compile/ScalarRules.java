package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.runtime.Coercion;
import dev.versio.engine.runtime.IntegerText;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.runtime.ValueOp;
import dev.versio.engine.schema.Classification;
import dev.versio.engine.schema.LeafKind;
import dev.versio.engine.schema.SchemaNode;
import java.math.BigDecimal;
import java.util.List;

/**
 * Strategies that convert one scalar: TypeCoerce, NumericScale, Quantity, Duration.
 *
 * <p>A direction is lossless when the destination keeps everything the source says, so the way back
 * restores the source exactly. Text parsed into a number or a quantity loses its spelling ({@code
 * "05"}, {@code "1Gi"}, {@code "90m"} come back as {@code "5"}, {@code "1073741824"}, {@code
 * "1h30m0s"}); numbers and canonical forms printed as text come back exactly.
 */
final class ScalarRules {
  private ScalarRules() {}

  static Resolved typeCoerce(Scope s, int index, Rule.TypeCoerce r) {
    var hub = s.hubNode(r, r.path());
    var spoke = s.spokeNode(r, r.path());
    if (hub == null || spoke == null) {
      return null;
    }
    var hk = Classification.of(hub).kind();
    var sk = Classification.of(spoke).kind();
    if (!Coercion.coercible(hk) || !Coercion.coercible(sk)) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(r.path()),
              Scope.label(r)
                  + ": "
                  + r.path()
                  + " must be a string, integer, number or boolean on both sides (hub: "
                  + hk.wireName()
                  + ", spoke: "
                  + sk.wireName()
                  + ")",
              "TypeCoerce converts scalars; use another strategy for objects and arrays");
      return null;
    }
    if (!(s.claimHub(r, index, r.path(), false) & s.claimSpoke(r, index, r.path(), false))) {
      return null;
    }
    return new Resolved(
        new ValueOp.Coerce(r.path(), sk, r.onFractionalInteger()),
        new ValueOp.Coerce(r.path(), hk, r.onFractionalInteger()),
        new Verdict(
            coercionKeeps(hub, hk, sk, r.onFractionalInteger()),
            coercionKeeps(spoke, sk, hk, r.onFractionalInteger())),
        List.of(s.hubName(r.path())),
        List.of(s.spokeName(r.path())));
  }

  /**
   * Whether coercing {@code from} to {@code to} keeps every value (or fails loudly). Text parsed
   * into a number or a boolean loses its spelling ("05", " 5", "True") unless the schema's enum,
   * pattern or length admits only the spelling that prints back (e.g. {@code pattern:
   * '^(0|[1-9][0-9]*)$'} into an integer).
   */
  private static boolean coercionKeeps(
      SchemaNode fromNode, LeafKind from, LeafKind to, FractionalPolicy policy) {
    if (from == to) {
      return true;
    }
    if (from == LeafKind.STRING) {
      return switch (to) {
        case INTEGER -> TextLosses.ruledOut(fromNode, TextLosses.INTEGER_SPELLINGS);
        case BOOLEAN -> TextLosses.ruledOut(fromNode, TextLosses.BOOLEAN_SPELLINGS);
        default -> false;
      };
    }
    return !(from == LeafKind.NUMBER && to == LeafKind.INTEGER && policy != FractionalPolicy.ERROR);
  }

  static Resolved numericScale(Scope s, int index, Rule.NumericScale r) {
    var hub = s.hubNode(r, r.hubPath());
    var spoke = s.spokeNode(r, r.spokePath());
    if (hub == null || spoke == null) {
      return null;
    }
    var hk = Classification.of(hub).kind();
    var sk = Classification.of(spoke).kind();
    if (!numeric(hk) || !numeric(sk)) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(r.hubPath()),
              Scope.label(r)
                  + ": both sides must be integer or number (hub "
                  + s.hubName(r.hubPath())
                  + " is "
                  + hk.wireName()
                  + ", spoke "
                  + s.spokeName(r.spokePath())
                  + " is "
                  + sk.wireName()
                  + ")",
              null);
      return null;
    }
    if (!(s.claimHub(r, index, r.hubPath(), false)
        & s.claimSpoke(r, index, r.spokePath(), false))) {
      return null;
    }
    // hub = spoke × factor: hub→spoke divides, spoke→hub multiplies.
    var factor = r.factor();
    boolean divisionExact = terminates(factor);
    boolean factorIntegral = factor.stripTrailingZeros().scale() <= 0;
    boolean unit = factor.abs().compareTo(BigDecimal.ONE) == 0;
    boolean h2s = sk == LeafKind.NUMBER ? divisionExact : (hk == LeafKind.INTEGER && unit);
    boolean s2h = hk == LeafKind.NUMBER || (sk == LeafKind.INTEGER && factorIntegral);
    return new Resolved(
        new ValueOp.Scale(r.hubPath(), r.spokePath(), factor, false, sk == LeafKind.INTEGER),
        new ValueOp.Scale(r.spokePath(), r.hubPath(), factor, true, hk == LeafKind.INTEGER),
        new Verdict(h2s, s2h),
        List.of(s.hubName(r.hubPath())),
        List.of(s.spokeName(r.spokePath())));
  }

  private static boolean numeric(LeafKind kind) {
    return kind == LeafKind.INTEGER || kind == LeafKind.NUMBER;
  }

  /** Whether dividing by {@code factor} always gives a finite decimal (factor = ±2^a·5^b·10^c). */
  private static boolean terminates(BigDecimal factor) {
    try {
      BigDecimal.ONE.divide(factor);
      return true;
    } catch (ArithmeticException e) {
      return false;
    }
  }

  static Resolved quantity(Scope s, int index, Rule.Quantity r) {
    return textAndInteger(s, index, r, r.hubPath(), r.spokePath(), true);
  }

  static Resolved duration(Scope s, int index, Rule.Duration r) {
    return textAndInteger(s, index, r, r.hubPath(), r.spokePath(), false);
  }

  /** Quantity and Duration: one side a string, the other an integer. */
  private static Resolved textAndInteger(
      Scope s, int index, Rule r, FieldPath hubPath, FieldPath spokePath, boolean quantity) {
    var hub = s.hubNode(r, hubPath);
    var spoke = s.spokeNode(r, spokePath);
    if (hub == null || spoke == null) {
      return null;
    }
    var hk = Classification.of(hub).kind();
    var sk = Classification.of(spoke).kind();
    boolean hubIsText = hk == LeafKind.STRING && sk == LeafKind.INTEGER;
    boolean spokeIsText = sk == LeafKind.STRING && hk == LeafKind.INTEGER;
    if (!hubIsText && !spokeIsText) {
      s.diagnostics()
          .error(
              DiagnosticCode.TYPE_MISMATCH,
              s.hubName(hubPath),
              Scope.label(r)
                  + ": one side must be a string and the other an integer (hub "
                  + s.hubName(hubPath)
                  + " is "
                  + hk.wireName()
                  + ", spoke "
                  + s.spokeName(spokePath)
                  + " is "
                  + sk.wireName()
                  + ")",
              quantity
                  ? "the integer side holds milli-units (250m = 250)"
                  : "the integer side holds whole seconds");
      return null;
    }
    if (!(s.claimHub(r, index, hubPath, false) & s.claimSpoke(r, index, spokePath, false))) {
      return null;
    }
    var form = quantity ? IntegerText.QUANTITY : IntegerText.DURATION;
    var text = hubIsText ? hubPath : spokePath;
    var integer = hubIsText ? spokePath : hubPath;
    Op textToInt = new ValueOp.TextToInteger(text, integer, form);
    Op intToText = new ValueOp.IntegerToText(integer, text, form);
    return hubIsText
        ? new Resolved(
            textToInt,
            intToText,
            new Verdict(false, true),
            List.of(s.hubName(hubPath)),
            List.of(s.spokeName(spokePath)))
        : new Resolved(
            intToText,
            textToInt,
            new Verdict(true, false),
            List.of(s.hubName(hubPath)),
            List.of(s.spokeName(spokePath)));
  }
}
