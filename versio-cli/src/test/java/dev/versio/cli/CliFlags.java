package dev.versio.cli;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The CLI's contract as a document: every command, every flag with its long and short names, its
 * value, whether it is required, and every command's exit codes — rendered from the command tree
 * itself, so that {@code docs/cli-flags.md} is what the build accepts.
 */
final class CliFlags {
  static final String TITLE = "# Every `versio` command and flag";

  private CliFlags() {}

  /** The document for {@code root} and every command under it, in help order. */
  static String render(CommandLine root) {
    var text = new StringBuilder();
    text.append(TITLE).append("\n\n");
    text.append(
        """
        Generated from the command tree by `CliFlagsContractTest` and checked by it on every \
        build: a flag or a short name that disappears from here fails the build unless \
        `DeprecatedFlags` keeps the old name working, with a warning, for one release. To \
        regenerate after adding a command or a flag: \
        `mvn -pl versio-cli test -Dtest=CliFlagsContractTest -Dversio.regenerate=true`. \
        What each command does: [cli.md](cli.md).
        """);
    for (var command : commands(root)) {
      var spec = command.getCommandSpec();
      text.append("\n## `").append(spec.qualifiedName(" ")).append("`\n\n");
      var exits = exitCodes(spec);
      if (!exits.isEmpty()) {
        text.append(exits).append("\n\n");
      }
      var positional =
          spec.positionalParameters().stream()
              .filter(p -> !p.hidden())
              .map(p -> p.paramLabel() + (p.arity().min == 0 ? " (optional)" : ""))
              .toList();
      if (!positional.isEmpty()) {
        text.append("Operands: ").append(String.join(", ", positional)).append("\n\n");
      }
      text.append("| Flag | Short | Value | Required |\n|---|---|---|---|\n");
      for (var option : spec.options()) {
        text.append("| ")
            .append(names(option, true))
            .append(" | ")
            .append(names(option, false))
            .append(" | ")
            .append(option.arity().max == 0 ? "" : option.paramLabel())
            .append(" | ")
            .append(required(option))
            .append(option.hidden() ? " (hidden)" : "")
            .append(" |\n");
      }
    }
    return text.toString();
  }

  /** Command path → every flag name in {@code document} (long and short). */
  static Map<String, Set<String>> flags(String document) {
    var flags = new LinkedHashMap<String, Set<String>>();
    String command = null;
    for (var line : document.lines().toList()) {
      if (line.startsWith("## `")) {
        command = line.substring(4, line.length() - 1);
        flags.put(command, new LinkedHashSet<>());
      } else if (command != null && line.startsWith("|") && line.contains("`-")) {
        var cells = line.split("\\|");
        for (int i = 1; i <= 2 && i < cells.length; i++) {
          for (var name : cells[i].split(",")) {
            var trimmed = name.strip().replace("`", "");
            if (!trimmed.isEmpty()) {
              flags.get(command).add(trimmed);
            }
          }
        }
      }
    }
    return flags;
  }

  /**
   * Every "command flag" that {@code committed} has and {@code current} lacks, less the ones a
   * deprecated alias of that command keeps working.
   */
  static List<String> removed(String committed, String current, List<DeprecatedFlags.Alias> kept) {
    var now = flags(current);
    var removed = new ArrayList<String>();
    flags(committed)
        .forEach(
            (command, names) -> {
              var typed = command.replaceFirst("^versio ?", "");
              for (var name : names) {
                boolean there = now.getOrDefault(command, Set.of()).contains(name);
                boolean aliased =
                    kept.stream().anyMatch(a -> a.command().equals(typed) && a.old().equals(name));
                if (!there && !aliased) {
                  removed.add(command + " " + name);
                }
              }
            });
    return removed;
  }

  /** "yes", "" or, for a flag of an exclusive group, which flags it excludes. */
  private static String required(OptionSpec option) {
    var group = option.group();
    if (group == null) {
      return option.required() ? "yes" : "";
    }
    var members =
        group.options().stream()
            .map(o -> "`" + o.longestName() + "`")
            .collect(Collectors.joining(" or "));
    return (group.multiplicity().min > 0 ? "one of " : "at most one of ") + members;
  }

  private static String names(OptionSpec option, boolean longNames) {
    return Arrays.stream(option.names())
        .filter(n -> n.startsWith("--") == longNames)
        .map(n -> "`" + n + "`")
        .collect(Collectors.joining(", "));
  }

  private static List<CommandLine> commands(CommandLine root) {
    var all = new ArrayList<CommandLine>();
    all.add(root);
    for (var sub : new LinkedHashSet<>(root.getSubcommands().values())) {
      all.addAll(commands(sub));
    }
    return all;
  }

  /** The command's "Exit codes:" line from its description or footer, or its footer section. */
  private static String exitCodes(CommandSpec spec) {
    var usage = spec.usageMessage();
    if (usage.footerHeading().contains("Exit codes")) {
      var lines = new ArrayList<String>();
      for (var line : usage.footer()) {
        if (line.isBlank()) {
          break;
        }
        lines.add(line.strip().replaceAll("\\s+", " "));
      }
      return "Exit codes: " + String.join("; ", lines) + ".";
    }
    for (var line : concat(usage.description(), usage.footer())) {
      if (line.startsWith("Exit codes:")) {
        return line;
      }
    }
    return "";
  }

  private static List<String> concat(String[] a, String[] b) {
    var all = new ArrayList<>(Arrays.asList(a));
    all.addAll(Arrays.asList(b));
    return all;
  }
}
