package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Max;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Pattern;

/**
 * How the operator re-stores the target's objects after its storage version was promoted, so that
 * {@code status.storedVersions} can be pruned and old versions removed (docs/operator.md, "Storage
 * migration").
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class StorageMigrationSpec {
  /** The annotation on a config that asks for one run now; {@code cancel} stops a running one. */
  public static final String REQUEST_ANNOTATION = "versio.dev/migrate-storage";

  /** The annotation value that cancels a running migration. */
  public static final String CANCEL = "cancel";

  /**
   * {@code Manual} (default): a run starts only when the annotation {@value #REQUEST_ANNOTATION}
   * gets a new value. {@code Automatic}: a run also starts whenever {@code status.storedVersions}
   * lists a version besides the storage version and the config is Applied.
   */
  @Default("Manual")
  @Pattern("^(Manual|Automatic)$")
  public String policy;

  /** At most this many object writes per second (default 50). */
  @Default("50")
  @Min(1)
  @Max(10000)
  public Integer rate;

  /** Objects per list page; progress is recorded after each page (default 500). */
  @Default("500")
  @Min(1)
  @Max(10000)
  public Integer pageSize;

  /** Whether runs start by themselves. */
  public boolean automatic() {
    return "Automatic".equals(policy);
  }

  /** {@link #rate}, or its default. */
  public int rateOrDefault() {
    return rate == null ? 50 : rate;
  }

  /** {@link #pageSize}, or its default. */
  public int pageSizeOrDefault() {
    return pageSize == null ? 500 : pageSize;
  }
}
