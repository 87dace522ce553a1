package dev.versio.cli.offline;

import java.nio.file.Path;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

/** The config and its target schema, shared by the offline commands. */
public final class TargetOptions {
  @Option(
      names = {"-c", "--config"},
      required = true,
      paramLabel = "FILE",
      description = "The CRDConversionConfig or XRDConversionConfig.")
  Path config;

  @ArgGroup(exclusive = true, multiplicity = "0..1")
  Schema schema;

  /** Exactly one of --crd / --xrd. */
  static final class Schema {
    @Option(
        names = "--crd",
        paramLabel = "FILE",
        description = "The target CustomResourceDefinition.")
    Path crd;

    @Option(
        names = {"-x", "--xrd"},
        paramLabel = "FILE",
        description = "The target Crossplane CompositeResourceDefinition.")
    Path xrd;
  }

  Inputs.Config loadConfig() {
    return Inputs.config(config);
  }

  /** The target, or null when no schema flag was given. */
  Inputs.Target loadTarget(Inputs.Config config) {
    if (schema == null) {
      return null;
    }
    return schema.crd != null
        ? Inputs.target(schema.crd, false, config)
        : Inputs.target(schema.xrd, true, config);
  }

  Inputs.Target requireTarget(Inputs.Config config) {
    var target = loadTarget(config);
    if (target == null) {
      throw new LoadError(
          "this command needs the target schema: pass --crd FILE (or --xrd FILE for an XRDConversionConfig)");
    }
    return target;
  }
}
