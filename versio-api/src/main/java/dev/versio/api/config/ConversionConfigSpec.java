package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.stream.Collectors;

/** What both config kinds share: hub, spokes, server reference and policies. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public abstract class ConversionConfigSpec {
  /** Must be the target's storage (CRD) or referenceable (XRD) version. */
  @Required public String hubVersion;

  @Required
  @Size(min = 1)
  public List<SpokeSpec> spokes = new ArrayList<>();

  /**
   * Pins the config to one ConversionWebhookServer; otherwise the sharding pool or the default
   * decides.
   */
  public NameRef webhookServerRef;

  @Default("[\"v1\"]")
  public List<String> conversionReviewVersions;

  /**
   * {@code Error} (default) rejects uncovered fields; {@code Warn} drops them and needs a reason.
   */
  @Default("Error")
  @Pattern("^(Error|Warn)$")
  public String unmappedFieldPolicy;

  public String unmappedFieldReason;

  /** {@code KeepServingStale} (default) or {@code FailClosed} when the target's schema drifts. */
  @Default("KeepServingStale")
  @Pattern("^(KeepServingStale|FailClosed)$")
  public String driftPolicy;

  /**
   * Re-storing the target's objects after a storage version promotion (an XRD's: the objects of the
   * composite's and the claim's CRDs Crossplane generates); absent means {@code Manual} with the
   * defaults.
   */
  public StorageMigrationSpec storageMigration;

  /** The name of the CRD or XRD this config converts. */
  public abstract String targetName();

  /**
   * The keys a spec of this kind may hold (its fields, which are its wire names), so that a reader
   * of raw YAML can report every other key as a typo.
   */
  public static SortedSet<String> keysOf(Class<? extends ConversionConfigSpec> kind) {
    return Arrays.stream(kind.getFields())
        .filter(f -> !Modifier.isStatic(f.getModifiers()))
        .map(Field::getName)
        .collect(Collectors.toCollection(TreeSet::new));
  }
}
