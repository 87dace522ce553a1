package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.Command;

class VersioCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    return cli.execute(args);
  }

  @Test
  void everySubcommandIsRegisteredUnderTheNameItsAnnotationGives() {
    for (var subcommand : VersioCommand.SUBCOMMANDS) {
      assertThat(subcommand.type().getAnnotation(Command.class).name())
          .as(subcommand.type().getName())
          .isEqualTo(subcommand.name());
    }
    assertThat(VersioCommand.commandLine().getSubcommands().keySet())
        .containsExactlyElementsOf(
            VersioCommand.SUBCOMMANDS.stream().map(VersioCommand.Subcommand::name).toList());
  }

  @Test
  void runningOneSubcommandBuildsOnlyItWithTheSameUsageAsInTheFullTree() {
    var all = VersioCommand.commandLine();
    for (var subcommand : VersioCommand.SUBCOMMANDS) {
      var name = subcommand.name();
      if (name.equals("help") || name.equals("completion")) {
        continue;
      }
      var alone = VersioCommand.commandLine(name, "--help");
      assertThat(alone.getSubcommands().keySet()).containsExactly(name);
      assertThat(alone.getSubcommands().get(name).getUsageMessage())
          .isEqualTo(all.getSubcommands().get(name).getUsageMessage());
    }
  }

  @Test
  void helpCompletionOptionsAndUnknownNamesGetEverySubcommand() {
    int count = VersioCommand.SUBCOMMANDS.size();
    for (var args :
        new String[][] {{}, {"--help"}, {"help", "convert"}, {"completion"}, {"webhook-servr"}}) {
      assertThat(VersioCommand.commandLine(args).getSubcommands()).hasSize(count);
    }
  }

  @Test
  void aMistypedSubcommandStillGetsASuggestion() {
    var cli = VersioCommand.commandLine("webhook-servr");
    cli.setOut(new PrintWriter(out));
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("webhook-servr")).isEqualTo(2);
    assertThat(err.toString()).contains("webhook-server");
  }

  @Test
  void helpDescribesTheProductAndDocumentsExitCodes() {
    assertThat(run("--help")).isZero();
    assertThat(out.toString())
        .contains("Usage: versio")
        .contains("Exit codes:")
        .contains("1  findings")
        .contains("2  usage or load error");
  }

  @Test
  void helpFitsAnEightyColumnTerminal() {
    run("--help");
    assertThat(out.toString().lines())
        .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(80));
  }

  @Test
  void versionNamesTheBuiltVersionAndTheJava() {
    assertThat(run("--version")).isZero();
    assertThat(out.toString()).containsPattern("versio \\d+\\.\\d+\\.\\d+").contains("Java 25");
  }

  @Test
  void anUnknownOptionIsAUsageErrorWithExitCodeTwo() {
    assertThat(run("--no-such-flag")).isEqualTo(2);
    assertThat(err.toString()).contains("Unknown option: '--no-such-flag'");
  }

  @Test
  void aUsageErrorIsOneLineAndAPointerToHelpNotTheWholeHelp() {
    assertThat(run("convert", "--to", "v2")).isEqualTo(2);

    assertThat(err.toString().lines().toList())
        .hasSize(2)
        .satisfies(
            lines -> {
              assertThat(lines.getFirst()).startsWith("versio convert: Missing required option");
              assertThat(lines.getLast()).isEqualTo("See 'versio convert --help'.");
            });
  }

  @Test
  void aMistypedCommandSuggestsTheRightOne() {
    assertThat(run("valdate")).isEqualTo(2);

    assertThat(err.toString()).contains("validate").contains("See 'versio --help'.");
  }
}
