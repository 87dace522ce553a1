package dev.versio.engine.compile;

import dev.cel.common.CelAbstractSyntaxTree;
import dev.cel.common.CelOptions;
import dev.cel.common.CelValidationException;
import dev.cel.common.ast.CelExpr;
import dev.cel.common.navigation.CelNavigableAst;
import dev.cel.common.types.MapType;
import dev.cel.common.types.SimpleType;
import dev.cel.compiler.CelCompiler;
import dev.cel.compiler.CelCompilerFactory;
import dev.cel.extensions.CelExtensions;
import dev.cel.parser.CelStandardMacro;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.cel.runtime.CelRuntimeFactory;
import dev.versio.engine.FieldPath;
import java.util.ArrayList;
import java.util.List;

/**
 * The CEL environment of the {@code cel} strategy: one variable {@code object} (the whole input, or
 * the element inside forEach) as {@code map(string, dyn)}, the extensions Kubernetes' own CEL
 * offers (strings, lists, sets, math, regex, base64, optional values, {@code cel.bind}), a result
 * that must be a map, and a bound on loop iterations. Compiled programs are immutable and
 * thread-safe.
 */
final class CelScripts {
  /**
   * Most expression nodes one evaluation may visit (as the reference's cost limit of 1,000,000).
   */
  static final long COST_LIMIT = 1_000_000;

  /**
   * Most elements and characters the values one evaluation builds may hold together, and its result
   * as JSON: 2,000,000, a few times the largest object the apiserver stores (1.5 MiB), so a
   * legitimate expression over a large object fits and one that multiplies it does not.
   */
  static final long SIZE_LIMIT = 2_000_000;

  private final CelCompiler compiler;
  private final CelRuntime runtime;

  CelScripts() {
    var options = CelOptions.current().comprehensionMaxIterations(10_000).build();
    var mapOfDyn = MapType.create(SimpleType.STRING, SimpleType.DYN);
    compiler =
        CelCompilerFactory.standardCelCompilerBuilder()
            .setOptions(options)
            .setStandardMacros(CelStandardMacro.STANDARD_MACROS)
            .addVar("object", mapOfDyn)
            .setResultType(mapOfDyn)
            // what Kubernetes' own CEL offers: strings, lists, sets, math, regex, base64,
            // optional field access (object.?spec.?size.orValue(1)) and cel.bind
            .addLibraries(
                CelExtensions.strings(),
                CelExtensions.lists(),
                CelExtensions.sets(options),
                CelExtensions.math(options),
                CelExtensions.regex(),
                CelExtensions.encoders(),
                CelExtensions.optional(),
                CelExtensions.bindings())
            .build();
    runtime =
        CelRuntimeFactory.standardCelRuntimeBuilder()
            .setOptions(options)
            .addLibraries(
                CelExtensions.strings(),
                CelExtensions.lists(),
                CelExtensions.sets(options),
                CelExtensions.math(options),
                CelExtensions.regex(),
                CelExtensions.encoders(),
                CelExtensions.optional())
            .build();
  }

  /** A compiled expression, or the reason it does not compile. */
  record Compiled(CelRuntime.Program program, List<FieldPath> reads, String error) {}

  Compiled compile(String expression) {
    CelAbstractSyntaxTree ast;
    try {
      ast = compiler.compile(expression).getAst();
    } catch (CelValidationException e) {
      return new Compiled(null, List.of(), e.getMessage());
    }
    try {
      return new Compiled(runtime.createProgram(ast), reads(ast), null);
    } catch (CelEvaluationException e) {
      return new Compiled(null, List.of(), e.getMessage());
    }
  }

  /**
   * The field paths read through {@code object.a.b…} chains, optional ones ({@code object.?a.?b})
   * included (longest chains only).
   */
  private static List<FieldPath> reads(CelAbstractSyntaxTree ast) {
    var out = new ArrayList<FieldPath>();
    CelNavigableAst.fromAst(ast)
        .getRoot()
        .allNodes()
        .forEach(
            node -> {
              var expr = node.expr();
              if (field(expr) == null) {
                return;
              }
              var parent = node.parent();
              if (parent.isPresent() && isOperandOf(parent.get().expr(), expr)) {
                return; // part of a longer chain
              }
              var segments = new ArrayList<String>();
              CelExpr current = expr;
              while (field(current) != null) {
                segments.addFirst(field(current));
                current = operand(current);
              }
              if (current.getKind() == CelExpr.ExprKind.Kind.IDENT
                  && current.ident().name().equals("object")) {
                out.add(new FieldPath(segments));
              }
            });
    return out;
  }

  private static final String OPTIONAL_SELECT = "_?._";

  /** The field {@code expr} selects ({@code x.f} or {@code x.?f}), or null. */
  private static String field(CelExpr expr) {
    if (expr.getKind() == CelExpr.ExprKind.Kind.SELECT) {
      return expr.select().field();
    }
    if (expr.getKind() == CelExpr.ExprKind.Kind.CALL
        && expr.call().function().equals(OPTIONAL_SELECT)
        && expr.call().args().size() == 2
        && expr.call().args().get(1).getKind() == CelExpr.ExprKind.Kind.CONSTANT) {
      return expr.call().args().get(1).constant().stringValue();
    }
    return null;
  }

  private static CelExpr operand(CelExpr expr) {
    return expr.getKind() == CelExpr.ExprKind.Kind.SELECT
        ? expr.select().operand()
        : expr.call().args().getFirst();
  }

  /**
   * Whether {@code parent} selects a field of {@code child} (so child is inside a longer chain).
   */
  private static boolean isOperandOf(CelExpr parent, CelExpr child) {
    return field(parent) != null && operand(parent).id() == child.id();
  }
}
