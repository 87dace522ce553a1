package dev.versio.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;

/**
 * Flags that were renamed or removed and still work for one release: each old name is rewritten to
 * its replacement before parsing, with a warning on standard error. The names are the CLI's
 * contract ({@code docs/cli-flags.md}, checked by {@code CliFlagsContractTest}): a flag leaves it
 * only through here, and leaves here in the release after {@code deprecatedIn}.
 */
public final class DeprecatedFlags {
  /**
   * {@code old} on {@code command} (its name as typed, e.g. {@code convert}) means {@code
   * replacement} since release {@code deprecatedIn}.
   */
  public record Alias(String command, String old, String replacement, String deprecatedIn) {
    public Alias {
      Objects.requireNonNull(command, "command");
      Objects.requireNonNull(replacement, "replacement");
      Objects.requireNonNull(deprecatedIn, "deprecatedIn");
      if (!old.startsWith("-") || !replacement.startsWith("-")) {
        throw new IllegalArgumentException("an alias maps a flag to a flag: " + old);
      }
    }
  }

  /** Every deprecated flag of this release. None today: {@code -x} is {@code --xrd} again. */
  public static final List<Alias> ALIASES = List.of();

  private DeprecatedFlags() {}

  /**
   * {@code args} with every deprecated flag of their command replaced, as its own argument or in
   * {@code --old=value} / {@code -o=value} form (nothing after {@code --}), warning once per flag
   * on {@code err}. Not rewritten: a deprecated short flag clustered with others or with its value
   * attached ({@code -ofoo}); keep an alias's old name out of values other flags take.
   */
  public static String[] rewrite(String[] args, List<Alias> aliases, PrintWriter err) {
    if (args.length == 0 || aliases.isEmpty()) {
      return args;
    }
    var command = args[0];
    var out = new ArrayList<String>(args.length);
    var warned = new LinkedHashSet<String>();
    boolean operands = false;
    for (var arg : args) {
      if (operands || arg.equals("--")) {
        operands = true;
        out.add(arg);
        continue;
      }
      var replaced = arg;
      for (var alias : aliases) {
        if (!alias.command().equals(command)) {
          continue;
        }
        if (arg.equals(alias.old())) {
          replaced = alias.replacement();
        } else if (arg.startsWith(alias.old() + "=")) {
          replaced = alias.replacement() + arg.substring(alias.old().length());
        } else {
          continue;
        }
        if (warned.add(alias.old())) {
          err.println(
              "versio "
                  + command
                  + ": warning: "
                  + alias.old()
                  + " is deprecated since "
                  + alias.deprecatedIn()
                  + " and goes in the next release; use "
                  + alias.replacement());
        }
        break;
      }
      out.add(replaced);
    }
    return out.toArray(String[]::new);
  }
}
