package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * The ops of one direction in order, each with its origin. An op failure becomes a {@link
 * ConversionException} that names the spoke, direction, rule, strategy and path.
 *
 * @param direction {@code hub->spoke} or {@code spoke->hub}
 */
public record Steps(String direction, List<Op> ops, List<Origin> origins) {
  public Steps {
    Objects.requireNonNull(direction, "direction");
    ops = List.copyOf(ops);
    origins = List.copyOf(origins);
    if (ops.size() != origins.size()) {
      throw new IllegalArgumentException("every op needs an origin");
    }
  }

  /** Runs every op over {@code input}, writing into {@code output}. */
  public void apply(JsonNode input, ObjectNode output) {
    for (int i = 0; i < ops.size(); i++) {
      try {
        ops.get(i).apply(input, output);
      } catch (OpFailure e) {
        throw new ConversionException(origins.get(i), direction, e.getMessage());
      }
    }
  }
}
