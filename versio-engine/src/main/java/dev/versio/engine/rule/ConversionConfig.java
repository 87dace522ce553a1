package dev.versio.engine.rule;

import java.util.List;
import java.util.Objects;

/**
 * What a {@code CRDConversionConfig}/{@code XRDConversionConfig} says to the engine.
 *
 * @param hubVersion the hub (must be the storage version)
 * @param spokes the rules per spoke version
 * @param unmappedFieldPolicy what to do with uncovered fields
 * @param unmappedFieldReason why {@code Warn} is acceptable (required with {@code Warn})
 */
public record ConversionConfig(
    String hubVersion,
    List<SpokeRules> spokes,
    UnmappedFieldPolicy unmappedFieldPolicy,
    String unmappedFieldReason) {
  public ConversionConfig {
    Objects.requireNonNull(hubVersion, "hubVersion");
    spokes = List.copyOf(spokes);
    Objects.requireNonNull(unmappedFieldPolicy, "unmappedFieldPolicy");
  }
}
