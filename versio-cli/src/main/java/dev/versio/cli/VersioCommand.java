package dev.versio.cli;

import dev.versio.cli.dev.DevCommand;
import dev.versio.cli.live.MigrateStorageCommand;
import dev.versio.cli.live.StatusCommand;
import dev.versio.cli.offline.AnalyzeCommand;
import dev.versio.cli.offline.ConvertCommand;
import dev.versio.cli.offline.DiffCommand;
import dev.versio.cli.offline.GenerateCommand;
import dev.versio.cli.offline.SuggestCommand;
import dev.versio.cli.offline.TestCommand;
import dev.versio.cli.offline.ValidateCommand;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code versio} command: one launcher for the CLI and the two long-running processes. */
@Command(
    name = "versio",
    mixinStandardHelpOptions = true,
    versionProvider = VersioCommand.Version.class,
    subcommands = {
      ValidateCommand.class,
      AnalyzeCommand.class,
      TestCommand.class,
      ConvertCommand.class,
      SuggestCommand.class,
      DiffCommand.class,
      GenerateCommand.class,
      MigrateStorageCommand.class,
      StatusCommand.class,
      WebhookServerCommand.class,
      OperatorCommand.class,
      DevCommand.class,
      CompletionCommand.class,
      CommandLine.HelpCommand.class
    },
    description = {
      "Declarative, field-level conversions between the versions of a Kubernetes CRD or a"
          + " Crossplane XRD.",
      "",
      "Write the differences between versions as rules (strategy: FieldRename, EnumRemap,"
          + " ForEach and 26 more, listed in docs/strategies);"
          + " Versio checks that nothing is lost and serves the conversion webhook for you."
    },
    footerHeading = "%nExit codes:%n",
    footer = {
      "  0  success",
      "  1  findings: invalid config, unacknowledged loss, failed conversion",
      "  2  usage or load error: bad flags, unreadable or malformed files",
      "",
      "Documentation: docs/ in the Versio repository."
    })
public final class VersioCommand implements Runnable {
  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with Versio's settings. */
  public static CommandLine commandLine() {
    return new CommandLine(new VersioCommand())
        .setCaseInsensitiveEnumValuesAllowed(true)
        .setParameterExceptionHandler(
            (e, args) -> {
              // a usage error is one line (plus picocli's "did you mean"), not the whole help
              var cli = e.getCommandLine();
              var name = cli.getCommandSpec().qualifiedName();
              cli.getErr().println(name + ": " + e.getMessage());
              CommandLine.UnmatchedArgumentException.printSuggestions(e, cli.getErr());
              cli.getErr().println("See '" + name + " --help'.");
              return 2;
            })
        .setExecutionExceptionHandler(
            (e, cli, parsed) -> {
              // a failure the user can fix gets its message, not a stack trace
              cli.getErr().println("versio " + cli.getCommandName() + ": " + e.getMessage());
              if (!(e instanceof IllegalArgumentException || e instanceof IllegalStateException)) {
                cli.getErr()
                    .println(
                        "  (unexpected "
                            + e.getClass().getSimpleName()
                            + "; rerun with VERSIO_LOG_LEVEL=DEBUG for details)");
                return 1;
              }
              return 2;
            });
  }

  /**
   * Runs {@code versio} with one output path: every command writes to the same two writers, which
   * are flushed before the process exits, so no output is ever cut at a buffer boundary.
   */
  public static void main(String[] args) {
    var out = new PrintWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8), true);
    var err = new PrintWriter(new OutputStreamWriter(System.err, StandardCharsets.UTF_8), true);
    int code;
    try {
      code = commandLine().setOut(out).setErr(err).execute(args);
    } finally {
      out.flush();
      err.flush();
    }
    System.exit(code);
  }

  /** Reads the version Maven wrote into {@code version.properties}. */
  static final class Version implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      var props = new Properties();
      try (var in = VersioCommand.class.getResourceAsStream("version.properties")) {
        if (in != null) {
          props.load(in);
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      return new String[] {
        "versio " + props.getProperty("version", "unknown"),
        "Java " + Runtime.version() + " (" + System.getProperty("java.vendor") + ")"
      };
    }
  }
}
