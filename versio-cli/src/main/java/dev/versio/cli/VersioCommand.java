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
import java.util.List;
import java.util.Properties;
import java.util.Set;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code versio} command: one launcher for the CLI and the two long-running processes. */
@Command(
    name = "versio",
    mixinStandardHelpOptions = true,
    versionProvider = VersioCommand.Version.class,
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
  /** One subcommand: its name as typed (its {@code @Command} name) and the class picocli builds. */
  record Subcommand(String name, Class<?> type) {
    static Subcommand of(Class<?> type) {
      var command = type.getAnnotation(Command.class);
      if (command == null) {
        throw new IllegalArgumentException(type.getName() + " has no @Command annotation");
      }
      return new Subcommand(command.name(), type);
    }
  }

  /**
   * The subcommands in the order help lists them. They are registered in code, not in the
   * {@code @Command} annotation, so that a run of one of them builds only its own options: picocli
   * reflects over every registered command before running one, and it cannot come from the AOT
   * cache (its classes are compiled for Java 5), which made it a large share of a webhook-server
   * replica's start-up.
   */
  static final List<Subcommand> SUBCOMMANDS =
      List.of(
          Subcommand.of(ValidateCommand.class),
          Subcommand.of(AnalyzeCommand.class),
          Subcommand.of(TestCommand.class),
          Subcommand.of(ConvertCommand.class),
          Subcommand.of(SuggestCommand.class),
          Subcommand.of(DiffCommand.class),
          Subcommand.of(GenerateCommand.class),
          Subcommand.of(MigrateStorageCommand.class),
          Subcommand.of(StatusCommand.class),
          Subcommand.of(WebhookServerCommand.class),
          Subcommand.of(OperatorCommand.class),
          Subcommand.of(DevCommand.class),
          Subcommand.of(CompletionCommand.class),
          Subcommand.of(CommandLine.HelpCommand.class));

  /** Subcommands that need the whole tree: help for any command, completion for all of them. */
  private static final Set<String> NEED_ALL = Set.of("help", "completion");

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    spec.commandLine().usage(spec.commandLine().getOut());
  }

  /** Builds the command line with every subcommand and Versio's settings. */
  public static CommandLine commandLine() {
    return commandLine(SUBCOMMANDS);
  }

  /**
   * The command line for running {@code args}: when they start with the name of a subcommand, only
   * that one is registered (its usage, errors and exit codes are the same); anything else (no
   * arguments, an option, an unknown name, {@code help}, {@code completion}) gets them all.
   */
  public static CommandLine commandLine(String... args) {
    if (args.length > 0 && !NEED_ALL.contains(args[0])) {
      for (var subcommand : SUBCOMMANDS) {
        if (subcommand.name().equals(args[0])) {
          return commandLine(List.of(subcommand));
        }
      }
    }
    return commandLine(SUBCOMMANDS);
  }

  private static CommandLine commandLine(List<Subcommand> subcommands) {
    var root = new CommandLine(new VersioCommand());
    for (var subcommand : subcommands) {
      root.addSubcommand(subcommand.name(), subcommand.type());
    }
    // after the subcommands: picocli applies these settings to the commands registered so far
    return root.setCaseInsensitiveEnumValuesAllowed(true)
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
      var parsed = DeprecatedFlags.rewrite(args, DeprecatedFlags.ALIASES, err);
      code = commandLine(parsed).setOut(out).setErr(err).execute(parsed);
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
