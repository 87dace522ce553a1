package dev.versio.bench.operator;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * {@link OperatorProcess} in a JVM of its own, driven over its standard input: each command is
 * answered by one {@code BENCH <json>} line on its standard output; its log goes to {@code
 * <logDir>/<name>.log}.
 */
final class OperatorJvm implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final PrintWriter in;
  private final LinkedBlockingQueue<String> answers = new LinkedBlockingQueue<>();
  private long startMillis;

  private OperatorJvm(Process process) {
    this.process = process;
    this.in = new PrintWriter(process.getOutputStream(), true, StandardCharsets.UTF_8);
    Thread.ofPlatform().daemon().name("bench-operator-stdout").start(this::readAnswers);
  }

  /** The operator with the harness's defaults: no extra flags, no recording, no front. */
  static OperatorJvm start(Path kubeconfig, String xmx, Path logDir) throws Exception {
    return start(kubeconfig, xmx, List.of(), logDir, "operator", false, null);
  }

  /**
   * Starts the operator and waits (up to 120 s) until it is ready.
   *
   * @param jvmArgs more flags for its JVM
   * @param jfr records a JFR profile into {@code <logDir>/<name>.jfr}
   * @param frontUrl the operator's {@code --front-url}, or null
   */
  static OperatorJvm start(
      Path kubeconfig,
      String xmx,
      List<String> jvmArgs,
      Path logDir,
      String name,
      boolean jfr,
      String frontUrl)
      throws Exception {
    var java = ProcessHandle.current().info().command().orElse("java");
    var command =
        new ArrayList<>(
            List.of(
                java,
                "--sun-misc-unsafe-memory-access=allow",
                "--enable-native-access=ALL-UNNAMED",
                "-Xmx" + xmx,
                "-Dbench.log.level=INFO"));
    command.addAll(jvmArgs);
    if (jfr) {
      command.add("-XX:FlightRecorderOptions=stackdepth=512");
      command.add(
          "-XX:StartFlightRecording=settings=profile,filename=" + logDir.resolve(name + ".jfr"));
    }
    command.addAll(
        List.of(
            "-cp",
            System.getProperty("java.class.path"),
            OperatorProcess.class.getName(),
            kubeconfig.toString()));
    if (frontUrl != null) {
      command.addAll(List.of("--front-url", frontUrl));
    }
    var process =
        new ProcessBuilder(command)
            .redirectError(ProcessBuilder.Redirect.appendTo(logDir.resolve(name + ".log").toFile()))
            .start();
    var jvm = new OperatorJvm(process);
    jvm.startMillis = jvm.answer(Duration.ofSeconds(120)).path("startMillis").asLong();
    return jvm;
  }

  /** How long the operator took to be ready, by its own clock. */
  long startMillis() {
    return startMillis;
  }

  long pid() {
    return process.pid();
  }

  /** Sends {@code command} and waits (up to 60 s) for its answer. */
  JsonNode command(String command) throws Exception {
    in.println(command);
    return answer(Duration.ofSeconds(60));
  }

  private void readAnswers() {
    try (var reader =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = reader.readLine()) != null) {
        if (line.startsWith("BENCH ")) {
          answers.add(line.substring(6));
        }
      }
    } catch (IOException e) {
      // the process ended
    }
  }

  private JsonNode answer(Duration max) throws Exception {
    var line = answers.poll(max.toMillis(), TimeUnit.MILLISECONDS);
    if (line == null) {
      throw new IllegalStateException(
          "the operator JVM did not answer within "
              + max.toSeconds()
              + " s (alive: "
              + process.isAlive()
              + ")");
    }
    return JSON.readTree(line);
  }

  /** Asks the operator to stop, and waits (up to 30 s) until it has. */
  void quit() throws Exception {
    if (process.isAlive()) {
      in.println("quit");
      process.waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Override
  public void close() throws Exception {
    quit();
    if (process.isAlive()) {
      process.destroyForcibly();
    }
  }
}
