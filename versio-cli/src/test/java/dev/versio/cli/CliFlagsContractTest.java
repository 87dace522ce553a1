package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The CLI's flags are a contract: {@code docs/cli-flags.md} is generated from the command tree and
 * every build checks it. A flag that disappears fails here unless a deprecated alias keeps it.
 */
class CliFlagsContractTest {
  private static final Path DOC = Path.of("..", "docs", "cli-flags.md");

  @Test
  void theCommittedFlagsAreTheFlagsOfThisBuild() throws Exception {
    var current = CliFlags.render(VersioCommand.commandLine());
    var committed = Files.readString(DOC, StandardCharsets.UTF_8);
    // checked before any regeneration: regenerating never makes a removed flag acceptable
    assertThat(CliFlags.removed(committed, current, DeprecatedFlags.ALIASES))
        .as(
            "flags removed or renamed without a deprecated alias: keep each working for one"
                + " release through DeprecatedFlags.ALIASES (scripts use them)")
        .isEmpty();
    if (Boolean.getBoolean("versio.regenerate")) {
      Files.writeString(DOC, current, StandardCharsets.UTF_8);
      committed = current;
    }
    assertThat(current)
        .as(
            "docs/cli-flags.md is not the CLI of this build; regenerate it: mvn -pl versio-cli"
                + " test -Dtest=CliFlagsContractTest -Dversio.regenerate=true")
        .isEqualTo(committed);
  }

  @Test
  void aFlagThatDisappearsFailsTheContractUnlessADeprecatedAliasKeepsIt() {
    var current = CliFlags.render(VersioCommand.commandLine());
    // a release whose convert had --schema/-y, which this build does not have
    var older =
        current.replace(
            "## `versio convert`\n",
            "## `versio convert`\n\n| Flag | Short | Value | Required |\n|---|---|---|---|\n"
                + "| `--schema` | `-y` | FILE |  |\n");
    assertThat(older).isNotEqualTo(current);

    assertThat(CliFlags.removed(older, current, List.of()))
        .containsExactly("versio convert --schema", "versio convert -y");
    assertThat(
            CliFlags.removed(
                older,
                current,
                List.of(
                    new DeprecatedFlags.Alias("convert", "--schema", "--crd", "0.1.0"),
                    new DeprecatedFlags.Alias("convert", "-y", "--crd", "0.1.0"))))
        .isEmpty();
  }

  @Test
  void everyCommandThatTakesCrdTakesXrdAsMinusXAsInTheFirstRelease() {
    var flags = CliFlags.flags(CliFlags.render(VersioCommand.commandLine()));
    var withCrd = flags.entrySet().stream().filter(e -> e.getValue().contains("--crd")).toList();
    assertThat(withCrd).hasSizeGreaterThanOrEqualTo(7);
    for (var command : withCrd) {
      var spec =
          VersioCommand.commandLine()
              .getSubcommands()
              .get(command.getKey().replaceFirst("^versio ", ""))
              .getCommandSpec();
      assertThat(spec.findOption("-x"))
          .as("-x on %s", command.getKey())
          .isNotNull()
          .isSameAs(spec.findOption("--xrd"));
    }
  }

  @Test
  void aDeprecatedFlagStillWorksAndWarnsOnceOnItsCommandOnly() {
    var aliases =
        List.of(
            new DeprecatedFlags.Alias("convert", "--old", "--file", "0.1.0"),
            new DeprecatedFlags.Alias("convert", "-y", "-x", "0.1.0"));
    var err = new StringWriter();
    var args =
        DeprecatedFlags.rewrite(
            new String[] {
              "convert",
              "--old",
              "a.yaml",
              "--old=b.yaml",
              "-y",
              "x.yaml",
              "-y=z.yaml",
              "--",
              "--old"
            },
            aliases,
            new PrintWriter(err, true));

    assertThat(args)
        .containsExactly(
            "convert",
            "--file",
            "a.yaml",
            "--file=b.yaml",
            "-x",
            "x.yaml",
            "-x=z.yaml",
            "--",
            "--old");
    assertThat(err.toString().lines())
        .containsExactly(
            "versio convert: warning: --old is deprecated since 0.1.0 and goes in the next"
                + " release; use --file",
            "versio convert: warning: -y is deprecated since 0.1.0 and goes in the next"
                + " release; use -x");
    assertThat(
            DeprecatedFlags.rewrite(new String[] {"test", "--old"}, aliases, new PrintWriter(err)))
        .containsExactly("test", "--old");
  }

  @Test
  void everyDeprecatedAliasLeadsToAFlagOfItsCommandAndShadowsNone() {
    for (var alias : DeprecatedFlags.ALIASES) {
      var spec = VersioCommand.commandLine().getSubcommands().get(alias.command()).getCommandSpec();
      assertThat(spec.findOption(alias.replacement())).as("%s", alias).isNotNull();
      assertThat(spec.findOption(alias.old())).as("%s", alias).isNull();
    }
  }
}
