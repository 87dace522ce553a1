package dev.versio.cli.offline;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.io.CharConversionException;
import java.nio.charset.CharacterCodingException;
import org.yaml.snakeyaml.error.MarkedYAMLException;

/**
 * A file that does not parse, said the way an editor would: {@code file:line:column: what is wrong
 * (while doing what)}, from the YAML or JSON parser's own reason — or that it is not text.
 */
final class SyntaxError {
  private SyntaxError() {}

  /** Whether the parser stopped at the YAML size limit ({@link InputLimits}). */
  static boolean isSizeLimit(Throwable error) {
    for (var cause = error; cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && cause.getMessage().contains("exceeds the limit")) {
        return true;
      }
    }
    return false;
  }

  static String describe(String file, Throwable error) {
    for (var cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof CharConversionException
          || cause instanceof CharacterCodingException
          || cause.getMessage() != null && cause.getMessage().startsWith("Invalid UTF-8")) {
        return file + " is not UTF-8 text (a binary file?); pass a YAML or JSON file";
      }
      if (cause instanceof MarkedYAMLException yaml && yaml.getProblemMark() != null) {
        var mark = yaml.getProblemMark();
        return file
            + ":"
            + (mark.getLine() + 1)
            + ":"
            + (mark.getColumn() + 1)
            + ": not valid YAML: "
            + yaml.getProblem()
            + (yaml.getContext() == null ? "" : " (" + yaml.getContext() + ")");
      }
    }
    for (var cause = error; cause != null; cause = cause.getCause()) {
      if (cause instanceof JsonProcessingException json && json.getLocation() != null) {
        var at = json.getLocation();
        return file
            + ":"
            + at.getLineNr()
            + ":"
            + at.getColumnNr()
            + ": not valid YAML or JSON: "
            + json.getOriginalMessage().lines().findFirst().orElse("");
      }
    }
    var message = error.getMessage() == null ? error.toString() : error.getMessage();
    return file + " is not valid YAML or JSON: " + message.lines().findFirst().orElse("");
  }
}
