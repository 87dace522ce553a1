package dev.versio.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.versio.operator.OperatorOptions;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class OperatorCommandTest {
  @TempDir Path tmp;

  private OperatorCommand parse(Map<String, String> env, String... args) {
    var command = new OperatorCommand();
    command.environment = env::get;
    command.serviceAccountNamespace = tmp.resolve("no-such-file");
    new CommandLine(command).parseArgs(args);
    return command;
  }

  private OperatorOptions options(String... args) {
    return parse(Map.of(), args).options();
  }

  @Test
  void defaultsMatchTheDocumentedValues() {
    var options = options("--admission-service", "versio-operator");
    assertThat(options.namespace()).isEqualTo("default");
    assertThat(options.crdSupport()).isTrue();
    assertThat(options.xrdSupport()).isTrue();
    assertThat(options.host()).isEqualTo("0.0.0.0");
    assertThat(options.opsPort()).isEqualTo(8080);
    assertThat(options.fanoutQps()).isEqualTo(50.0);
    assertThat(options.resyncInterval()).isEqualTo(Duration.ofMinutes(5));
    assertThat(options.gateRequeue()).isEqualTo(Duration.ofSeconds(15));
    assertThat(options.serverRecheck()).isEqualTo(Duration.ofSeconds(30));
    assertThat(options.reconcileThreads()).isEqualTo(4);
    var coordination = options.coordination();
    assertThat(coordination.shards()).isEqualTo(256);
    assertThat(coordination.leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(coordination.renewInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(coordination.renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(coordination.takeoverResyncRate()).isEqualTo(20.0);
    assertThat(coordination.replicaId()).startsWith("versio-operator-");
    var defaults = OperatorOptions.defaults("default");
    assertThat(options.deletionRequeue()).isEqualTo(defaults.deletionRequeue());
    assertThat(options.admission())
        .isEqualTo(
            new OperatorOptions.Admission(
                9443,
                null,
                "versio-operator",
                443,
                "versio-operator-admission-tls",
                "versio-admission"));
  }

  @Test
  void whatServersMayRunDefaultsToTheOperatorsNamespaceImageAndAccountsAndFlagsWidenIt() {
    var strict = options("--admission-service", "s", "--webhook-server-image=ghcr.io/a/versio:1");
    assertThat(strict.serverPolicy().childNamespaces()).containsExactly("default");
    assertThat(strict.serverPolicy().imageRepositories()).containsExactly("ghcr.io/a/versio");
    assertThat(strict.serverPolicy().serviceAccounts()).isEmpty();

    var wide =
        options(
            "--admission-service",
            "s",
            "--namespace=versio-system",
            "--webhook-server-namespaces=team-a, team-b",
            "--webhook-server-image-repositories=ghcr.io/a/,mirror.example/versio",
            "--webhook-server-service-accounts=team-a/reader",
            "--operator-service-account=versio-operator");
    var policy = wide.serverPolicy();
    assertThat(policy.childNamespaces()).containsExactly("versio-system", "team-a", "team-b");
    assertThat(policy.imageRepositories()).containsExactly("ghcr.io/a/", "mirror.example/versio");
    assertThat(policy.serviceAccounts()).containsExactly("team-a/reader");
    assertThat(policy.operatorServiceAccount()).isEqualTo("versio-operator");

    assertThatThrownBy(
            () ->
                options(
                    "--admission-service",
                    "s",
                    "--namespace=versio-system",
                    "--operator-service-account=versio-operator",
                    "--webhook-server-service-accounts=versio-system/versio-operator"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("names the operator's own ServiceAccount");
    assertThatThrownBy(
            () -> options("--admission-service", "s", "--webhook-server-service-accounts=reader"))
        .hasMessageContaining("'reader' is not namespace/name");
  }

  @Test
  void targetsNeedTheirOwnersConsentAndUrlModeIsOffUnlessFlagsSayOtherwise() {
    var strict = options("--admission-service", "s");
    assertThat(strict.targetGroups()).isEmpty();
    assertThat(strict.allowUrlMode()).isFalse();
    assertThat(strict.serverPolicy().urlMode()).isFalse();

    var development =
        options(
            "--admission-service",
            "s",
            "--target-groups=example.com,*.platform.io",
            "--allow-url-mode");
    assertThat(development.targetGroups()).containsExactly("example.com", "*.platform.io");
    assertThat(development.serverPolicy().urlMode()).isTrue();
    assertThatThrownBy(() -> options("--admission-service", "s", "--target-groups=ex*ample.com"))
        .hasMessageContaining("--target-groups");
  }

  @Test
  void everyFlagReachesTheOptions() {
    var options =
        options(
            "--namespace=versio-system",
            "--no-enable-xrd-support",
            "--bind-address=127.0.0.1",
            "--ops-port=18080",
            "--admission-port=19443",
            "--admission-url=https://127.0.0.1:19443",
            "--admission-tls-secret=tls",
            "--webhook-configuration-name=hooks",
            "--fanout-qps=0",
            "--resync-interval=90s",
            "--gate-requeue=500ms",
            "--max-concurrent-reconciles=8");
    assertThat(options.namespace()).isEqualTo("versio-system");
    assertThat(options.crdSupport()).isTrue();
    assertThat(options.xrdSupport()).isFalse();
    assertThat(options.host()).isEqualTo("127.0.0.1");
    assertThat(options.opsPort()).isEqualTo(18080);
    assertThat(options.fanoutQps()).isZero();
    assertThat(options.resyncInterval()).isEqualTo(Duration.ofSeconds(90));
    assertThat(options.gateRequeue()).isEqualTo(Duration.ofMillis(500));
    assertThat(options.reconcileThreads()).isEqualTo(8);
    assertThat(options.admission())
        .isEqualTo(
            new OperatorOptions.Admission(
                19443, URI.create("https://127.0.0.1:19443"), null, 443, "tls", "hooks"));
  }

  @Test
  void theReplicaIdIsThePodNameUnlessGivenAndTheLeaseFlagsReachTheCoordination() {
    assertThat(
            parse(Map.of("POD_NAME", "versio-operator-7d9f-x2"), "--no-admission")
                .options()
                .coordination()
                .replicaId())
        .isEqualTo("versio-operator-7d9f-x2");
    var coordination =
        parse(
                Map.of("POD_NAME", "pod-a"),
                "--no-admission",
                "--replica-id=replica-b",
                "--shards=64",
                "--lease-duration=20s",
                "--renew-interval=4s",
                "--renew-deadline=12s",
                "--takeover-resync-rate=50")
            .options()
            .coordination();
    assertThat(coordination)
        .isEqualTo(
            new OperatorOptions.Coordination(
                "replica-b",
                64,
                Duration.ofSeconds(20),
                Duration.ofSeconds(4),
                Duration.ofSeconds(12),
                50));
    assertThat(coordination.writeTimeout()).isEqualTo(Duration.ofSeconds(7));
  }

  @Test
  void leaseTimingThatCouldLetTwoReplicasWriteIsRefusedNamingTheFlags() {
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> options("--no-admission", "--lease-duration=15s", "--renew-deadline=14s"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--renew-deadline")
        .hasMessageContaining("must be at most leaseDuration - renewInterval");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> options("--no-admission", "--replica-id=Not_A_Pod"))
        .hasMessageContaining("like a pod name");
    org.assertj.core.api.Assertions.assertThatThrownBy(
            () -> options("--no-admission", "--takeover-resync-rate=0"))
        .hasMessageContaining("--takeover-resync-rate");
  }

  @Test
  void supportFlagsCanBeTurnedOnExplicitlyAndOffByNegation() {
    assertThat(options("--no-admission", "--enable-crd-support").crdSupport()).isTrue();
    assertThat(options("--no-admission", "--no-enable-crd-support").crdSupport()).isFalse();
    assertThat(options("--no-admission", "--enable-xrd-support=false").xrdSupport()).isFalse();
  }

  @Test
  void noAdmissionLeavesTheAdmissionWebhookOut() {
    assertThat(options("--no-admission").admission()).isNull();
  }

  @Test
  void namespaceComesFromPodNamespaceThenTheServiceAccountFileThenDefault() throws IOException {
    var fromEnv = parse(Map.of("POD_NAMESPACE", "from-env"), "--no-admission");
    assertThat(fromEnv.options().namespace()).isEqualTo("from-env");

    var file = Files.writeString(tmp.resolve("namespace"), "from-file\n");
    var fromFile = parse(Map.of(), "--no-admission");
    fromFile.serviceAccountNamespace = file;
    assertThat(fromFile.options().namespace()).isEqualTo("from-file");

    var flagWins = parse(Map.of("POD_NAMESPACE", "from-env"), "--no-admission", "--namespace=x");
    flagWins.serviceAccountNamespace = file;
    assertThat(flagWins.options().namespace()).isEqualTo("x");

    assertThat(options("--no-admission").namespace()).isEqualTo("default");
  }

  @Test
  void admissionWithoutUrlOrServiceIsRefusedWithTheWayOut() {
    assertThatThrownBy(() -> options())
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--admission-url")
        .hasMessageContaining("--admission-service")
        .hasMessageContaining("--no-admission");
  }

  @Test
  void contradictoryFlagsAreRefused() {
    assertThatThrownBy(() -> options("--no-admission", "--admission-url=https://127.0.0.1:9443"))
        .hasMessageContaining("--no-admission")
        .hasMessageContaining("--admission-url");
    assertThatThrownBy(
            () ->
                options("--admission-url=https://127.0.0.1:9443", "--admission-service=versio-op"))
        .hasMessageContaining("alternatives");
    assertThatThrownBy(
            () ->
                options("--admission-url=https://127.0.0.1:9443", "--admission-service-port=8443"))
        .hasMessageContaining("--admission-service-port");
    assertThatThrownBy(() -> options("--admission-url=http://127.0.0.1:9443"))
        .hasMessageContaining("https://");
    assertThatThrownBy(() -> options("--admission-service=s", "--ops-port=9443"))
        .hasMessageContaining("different ports");
    assertThatThrownBy(() -> options("--no-admission", "--ops-port=70000"))
        .hasMessageContaining("--ops-port");
    assertThatThrownBy(() -> options("--no-admission", "--fanout-qps=-1"))
        .hasMessageContaining("--fanout-qps");
    assertThatThrownBy(() -> options("--no-admission", "--resync-interval=0s"))
        .hasMessageContaining("--resync-interval");
    assertThatThrownBy(() -> options("--no-admission", "--max-concurrent-reconciles=0"))
        .hasMessageContaining("--max-concurrent-reconciles");
    assertThatThrownBy(
            () -> options("--no-admission", "--no-enable-crd-support", "--no-enable-xrd-support"))
        .hasMessageContaining("enable at least one");
  }

  @Test
  void invalidCombinationsExitWithTwoAndAClearMessage() {
    var err = new StringWriter();
    var cli = VersioCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    int code =
        cli.execute(
            "operator", "--no-admission", "--no-enable-crd-support", "--no-enable-xrd-support");
    assertThat(code).isEqualTo(2);
    assertThat(err.toString()).contains("versio operator:").contains("enable at least one");
  }

  @Test
  void aMalformedDurationIsAUsageError() {
    var err = new StringWriter();
    var cli = VersioCommand.commandLine();
    cli.setErr(new PrintWriter(err));
    assertThat(cli.execute("operator", "--no-admission", "--gate-requeue=soon")).isEqualTo(2);
    assertThat(err.toString()).contains("--gate-requeue").contains("500ms, 30s, 5m or 1h");
  }

  @Test
  void helpListsEveryFlagWithItsDefault() {
    var out = new StringWriter();
    var cli = VersioCommand.commandLine();
    cli.setOut(new PrintWriter(out));
    assertThat(cli.execute("operator", "--help")).isZero();
    assertThat(out.toString())
        .contains("--namespace", "$POD_NAMESPACE")
        .contains("--[no-]enable-crd-support", "--[no-]enable-xrd-support")
        .contains("--bind-address", "0.0.0.0")
        .contains("--ops-port", "8080")
        .contains("--admission-port", "9443")
        .contains("--admission-url", "--admission-service", "--admission-service-port")
        .contains("--admission-tls-secret", "versio-operator-admission-tls")
        .contains("--webhook-configuration-name", "versio-admission")
        .contains("--no-admission")
        .contains("--fanout-qps", "50")
        .contains("--resync-interval", "5m")
        .contains("--gate-requeue", "15s")
        .contains("--max-concurrent-reconciles", "4");
    assertThat(out.toString().lines())
        .allSatisfy(line -> assertThat(line.length()).isLessThanOrEqualTo(100));
  }
}
