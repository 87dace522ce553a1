package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Variants of the kitchen-sink story's config for tests about losses the compiler cannot see. */
public final class KitchenSinkVariants {
  private KitchenSinkVariants() {}

  /**
   * The kitchen sink's config with its when-gated burst-limit rename taken out and uncovered fields
   * accepted ({@code unmappedFieldPolicy: Warn}): {@code spec.burstLimit} is dropped by a direction
   * the compiler calls lossless, so only a sample shows the loss. Written into {@code dir}.
   */
  public static Path droppingTheBurstLimit(Path examples, Path dir) throws IOException {
    var config =
        Files.readString(examples.resolve("kitchen-sink/config.yaml"))
            .replace(
                "    - strategy: FieldRename\n"
                    + "      fieldRename: {hubPath: spec.burstLimit, spokePath: spec.burst}\n"
                    + "      when: {path: spec.plan, equals: enterprise}\n"
                    + "      acknowledgeLossy: true\n",
                "")
            .replaceAll("      reason: only enterprise plans have a burst limit.*\n", "")
            .replace(
                "  hubVersion: v2\n",
                "  hubVersion: v2\n  unmappedFieldPolicy: Warn\n"
                    + "  unmappedFieldReason: the burst limit is being retired\n");
    assertThat(config).doesNotContain("spec.burstLimit, spokePath").contains("Warn");
    var path = dir.resolve("dropping-the-burst-limit.yaml");
    Files.writeString(path, config);
    return path;
  }
}
