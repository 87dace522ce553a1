package dev.versio.engine.compile;

import dev.versio.engine.diagnostic.Diagnostic;
import java.util.List;

/** The outcome of {@link Compiler#compile}: plans or the errors that prevent them — never both. */
public sealed interface CompileResult {
  /** The config compiled; warnings may remain. */
  record Compiled(CompiledConfig config) implements CompileResult {}

  /** The config has errors (and possibly warnings); nothing may be served from it. */
  record Rejected(List<Diagnostic> diagnostics) implements CompileResult {
    public Rejected {
      diagnostics = List.copyOf(diagnostics);
      if (diagnostics.stream().noneMatch(Diagnostic::isError)) {
        throw new IllegalArgumentException("a rejected config needs at least one error");
      }
    }
  }
}
