package dev.versio.cli.dev;

import java.util.List;

/**
 * Why {@code versio dev} cannot go on, and what to do about it: {@link #hints} are printed below
 * the message, e.g. a kubectl command or the path of a log.
 */
final class DevFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** Exit code 2: fixable before anything starts (flags, a missing story or binaries). */
  static final int SETUP = 2;

  /** Exit code 1: something failed while running. */
  static final int RUNTIME = 1;

  private final int exitCode;
  private final List<String> hints;

  DevFailure(int exitCode, String message, List<String> hints) {
    super(message);
    this.exitCode = exitCode;
    this.hints = List.copyOf(hints);
  }

  static DevFailure setup(String message, String... hints) {
    return new DevFailure(SETUP, message, List.of(hints));
  }

  static DevFailure runtime(String message, String... hints) {
    return new DevFailure(RUNTIME, message, List.of(hints));
  }

  int exitCode() {
    return exitCode;
  }

  List<String> hints() {
    return hints;
  }
}
