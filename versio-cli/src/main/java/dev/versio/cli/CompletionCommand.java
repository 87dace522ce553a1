package dev.versio.cli;

import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code versio completion bash|zsh}: a shell completion script on standard output. */
@Command(
    name = "completion",
    mixinStandardHelpOptions = true,
    description = {"Print a completion script for bash or zsh."},
    footerHeading = "%nExample:%n",
    footer = {"  source <(versio completion bash)"})
final class CompletionCommand implements Callable<Integer> {
  @Parameters(paramLabel = "SHELL", description = "bash or zsh")
  String shell;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    if (!shell.equals("bash") && !shell.equals("zsh")) {
      throw new IllegalArgumentException(
          "completion is available for bash and zsh, not '" + shell + "'");
    }
    // picocli's script works in both shells (zsh through bashcompinit, which the script enables)
    spec.commandLine().getOut().print(AutoComplete.bash("versio", spec.root().commandLine()));
    return 0;
  }
}
