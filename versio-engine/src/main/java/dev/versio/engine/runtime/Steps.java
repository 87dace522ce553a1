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
 * @param writesMetadata whether any op writes below the top-level {@code metadata} (see {@link
 *     TopLevelWrites}); when none does, a conversion shares the input's metadata instead of copying
 * @param writesApiVersion whether any op writes the top-level {@code apiVersion}; only then does a
 *     conversion set the converted object's {@code apiVersion} again after the ops
 */
public record Steps(
    String direction,
    List<Op> ops,
    List<Origin> origins,
    boolean writesMetadata,
    boolean writesApiVersion) {
  public Steps {
    Objects.requireNonNull(direction, "direction");
    ops = List.copyOf(ops);
    origins = List.copyOf(origins);
    if (ops.size() != origins.size()) {
      throw new IllegalArgumentException("every op needs an origin");
    }
    if (writesMetadata != TopLevelWrites.metadata(ops)) {
      throw new IllegalArgumentException(
          "writesMetadata must be " + !writesMetadata + " for these ops");
    }
    if (writesApiVersion != TopLevelWrites.apiVersion(ops)) {
      throw new IllegalArgumentException(
          "writesApiVersion must be " + !writesApiVersion + " for these ops");
    }
  }

  /**
   * Steps whose {@link #writesMetadata()} and {@link #writesApiVersion()} derive from {@code ops}.
   */
  public Steps(String direction, List<Op> ops, List<Origin> origins) {
    this(direction, ops, origins, TopLevelWrites.metadata(ops), TopLevelWrites.apiVersion(ops));
  }

  /** Runs every op over {@code input}, writing into {@code output}. */
  public void apply(JsonNode input, ObjectNode output) {
    apply(input, output, null);
  }

  /** Runs every op over one element of a {@code ForEach}, which {@code scope} names. */
  void apply(JsonNode input, ObjectNode output, ElementScope scope) {
    for (int i = 0; i < ops.size(); i++) {
      try {
        ops.get(i).apply(input, output, scope);
      } catch (OpFailure e) {
        throw new ConversionException(
            origins.get(i), direction, e.getMessage(), e.incompleteInput());
      }
    }
  }
}
