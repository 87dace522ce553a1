package dev.versio.bench.fleet;

import dev.versio.cli.VersioCommand;
import java.nio.file.Path;
import java.util.List;

/**
 * The command line of one {@code versio webhook-server} replica a harness runs as a process in URL
 * mode on loopback, after the JVM flags: class path, main class and Versio's flags. The harnesses
 * stop a replica only when nothing is sent to it, so it skips the pre-stop delay.
 */
public final class WebhookServerArgs {
  private WebhookServerArgs() {}

  /** Everything after the JVM flags, then {@code extra} (e.g. {@code --drain 5000ms}). */
  public static List<String> of(
      String classpath,
      String server,
      String pod,
      String namespace,
      Path tlsDir,
      int conversionPort,
      int opsPort,
      String... extra) {
    var args =
        new java.util.ArrayList<>(
            List.of(
                "-cp",
                classpath,
                VersioCommand.class.getName(),
                "webhook-server",
                "--server-name",
                server,
                "--tls-cert-dir",
                tlsDir.toString(),
                "--bind-address",
                "127.0.0.1",
                "--conversion-port",
                Integer.toString(conversionPort),
                "--ops-port",
                Integer.toString(opsPort),
                "--pod-name",
                pod,
                "--pod-namespace",
                namespace,
                "--shutdown-delay",
                "0s"));
    args.addAll(List.of(extra));
    return args;
  }
}
