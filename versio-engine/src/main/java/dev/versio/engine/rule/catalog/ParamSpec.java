package dev.versio.engine.rule.catalog;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One parameter of a strategy's params block.
 *
 * @param name the key inside the params block, e.g. {@code hubPath}
 * @param type the kind of value it holds
 * @param required whether the block must set it
 * @param defaultValue the value an absent optional parameter means, as written in YAML; null for
 *     required parameters
 * @param choices the allowed words of a {@link ParamType#CHOICE}; empty for every other type
 * @param description one sentence for the reference and the CRD schema
 */
public record ParamSpec(
    String name,
    ParamType type,
    boolean required,
    String defaultValue,
    List<String> choices,
    String description) {
  public ParamSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(type, "type");
    Objects.requireNonNull(description, "description");
    choices = List.copyOf(choices);
    if (name.isBlank() || description.isBlank()) {
      throw new IllegalArgumentException("a parameter needs a name and a description");
    }
    if (required == (defaultValue != null)) {
      throw new IllegalArgumentException(
          name + ": a required parameter has no default, an optional one has one");
    }
    if ((type == ParamType.CHOICE) == choices.isEmpty()) {
      throw new IllegalArgumentException(name + ": choices belong to CHOICE parameters only");
    }
    if (type == ParamType.CHOICE && defaultValue != null && !choices.contains(defaultValue)) {
      throw new IllegalArgumentException(name + ": the default must be one of " + choices);
    }
  }

  /** A parameter the block must set. */
  public static ParamSpec required(String name, ParamType type, String description) {
    return new ParamSpec(name, type, true, null, List.of(), description);
  }

  /** An optional parameter; {@code defaultValue} is what its absence means. */
  public static ParamSpec optional(
      String name, ParamType type, String defaultValue, String description) {
    return new ParamSpec(name, type, false, defaultValue, List.of(), description);
  }

  /**
   * A choice among the wire names of {@code values}; required when {@code fallback} is null,
   * otherwise {@code fallback} is the default.
   */
  public static <E extends Enum<E>> ParamSpec choice(
      String name, Class<E> values, E fallback, String description) {
    return new ParamSpec(
        name,
        ParamType.CHOICE,
        fallback == null,
        fallback == null ? null : wireName(fallback),
        choices(values),
        description);
  }

  /** The wire names of an enum's constants, in declaration order. */
  public static List<String> choices(Class<? extends Enum<?>> values) {
    return Arrays.stream(values.getEnumConstants()).map(ParamSpec::wireName).toList();
  }

  /**
   * How a choice is spelled in YAML: {@code Error}, {@code Drop}; {@code JSON} stays upper case.
   */
  public static String wireName(Enum<?> constant) {
    var name = constant.name();
    if (name.equals("JSON")) {
      return name;
    }
    return name.charAt(0) + name.substring(1).toLowerCase(Locale.ROOT);
  }
}
