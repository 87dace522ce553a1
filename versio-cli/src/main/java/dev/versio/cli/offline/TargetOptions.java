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

  @Option(
      names = InputLimits.FLAG,
      paramLabel = "SIZE",
      converter = InputLimits.SizeConverter.class,
      description = InputLimits.DESCRIPTION)
  InputLimits limits = InputLimits.defaults();

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

  /** At most one input may be standard input ({@code -}): it can be read only once. */
  void requireOneStdin(java.nio.file.Path... others) {
    var flags = new java.util.ArrayList<String>();
    if (InputFile.isStdin(config)) {
      flags.add("--config");
    }
    if (schema != null && (InputFile.isStdin(schema.crd) || InputFile.isStdin(schema.xrd))) {
      flags.add(schema.crd != null ? "--crd" : "--xrd");
    }
    for (var other : others) {
      if (InputFile.isStdin(other)) {
        flags.add("another input");
      }
    }
    if (flags.size() > 1) {
      throw new LoadError(
          String.join(" and ", flags)
              + " both read standard input (-); only one input can come from stdin");
    }
  }

  Inputs.Config loadConfig() {
    requireOneStdin();
    return Inputs.config(config, limits);
  }

  /** The target, or null when no schema flag was given. */
  Inputs.Target loadTarget(Inputs.Config config) {
    if (schema == null) {
      return null;
    }
    return schema.crd != null
        ? Inputs.target(schema.crd, false, config, limits)
        : Inputs.target(schema.xrd, true, config, limits);
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
