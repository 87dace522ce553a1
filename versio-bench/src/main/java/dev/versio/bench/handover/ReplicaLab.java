package dev.versio.bench.handover;

import dev.versio.testkit.ControlPlane;
import dev.versio.testkit.ControlPlaneAssets;
import dev.versio.testkit.Crds;
import dev.versio.testkit.process.ProcessLedger;
import dev.versio.testkit.tls.CertificateAuthority;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * What the replica benchmarks set up on a fresh control plane before starting {@code versio
 * webhook-server} processes: Versio's CRDs, the replicas' namespace, and one serving certificate
 * for loopback in a TLS folder as the replicas read it; and the small review they send.
 */
final class ReplicaLab {
  private ReplicaLab() {}

  /** A control plane prepared for replicas, its admin client and the CA of their certificate. */
  record Started(
      ControlPlane controlPlane,
      KubernetesClient client,
      CertificateAuthority ca,
      Path work,
      String namespace)
      implements AutoCloseable {
    /**
     * One ready replica of {@code server} with the lab's certificate, logging under {@code
     * work/logs}, a drain of 1 s, the JVM flags {@code jvmArgs} and {@code flags} added to {@code
     * versio webhook-server}.
     */
    ServerReplicas oneReplica(
        String server, ProcessLedger.Entry entry, List<String> jvmArgs, List<String> flags)
        throws IOException {
      return ServerReplicas.start(
          server,
          1,
          namespace,
          work.resolve("tls"),
          Duration.ofSeconds(1),
          controlPlane.kubeconfig(),
          work.resolve("logs"),
          entry,
          jvmArgs,
          flags);
    }

    @Override
    public void close() {
      try (controlPlane) {
        client.close();
      }
    }
  }

  /**
   * Starts a control plane under {@code work}, {@link #prepare prepared} for {@code namespace},
   * with {@link #servingTls serving TLS} of a CA named {@code caName} in {@code work/tls}.
   */
  static Started start(Path work, String namespace, String caName) throws IOException {
    var controlPlane =
        ControlPlane.start(
            ControlPlaneAssets.locate(), work.resolve("cluster"), System.err::println);
    var client = controlPlane.adminClient();
    try {
      prepare(client, namespace);
      return new Started(
          controlPlane, client, servingTls(work.resolve("tls"), caName), work, namespace);
    } catch (IOException | RuntimeException e) {
      client.close();
      controlPlane.close();
      throw e;
    }
  }

  /** Applies Versio's CRDs and the namespace {@code namespace}. */
  static void prepare(KubernetesClient client, String namespace) {
    Crds.applyVersioCrds(client);
    client
        .namespaces()
        .resource(
            new NamespaceBuilder().withNewMetadata().withName(namespace).endMetadata().build())
        .serverSideApply();
  }

  /**
   * A new CA named {@code name} and a certificate it issues for 127.0.0.1 and localhost, written to
   * {@code tlsDir} as {@code tls.crt}, {@code tls.key} and {@code ca.crt}; the CA returned.
   */
  static CertificateAuthority servingTls(Path tlsDir, String name) throws IOException {
    Files.createDirectories(tlsDir);
    var ca = CertificateAuthority.create(name);
    var cert = ca.issueServer("127.0.0.1", "localhost");
    Files.writeString(tlsDir.resolve("tls.crt"), cert.certificatePem());
    Files.writeString(tlsDir.resolve("tls.key"), cert.privateKeyPem());
    Files.writeString(tlsDir.resolve("ca.crt"), ca.material().certificatePem());
    return ca;
  }

  /** A ConversionReview of one small Widget of {@code group} from v2 to v1. */
  static String review(String group) {
    return "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"ConversionReview\",\"request\":{"
        + "\"uid\":\"u\",\"desiredAPIVersion\":\""
        + group
        + "/v1\",\"objects\":[{\"apiVersion\":\""
        + group
        + "/v2\",\"kind\":\"Widget\",\"metadata\":{\"name\":\"w\",\"namespace\":\"default\"},"
        + "\"spec\":{\"replicas\":3}}]}}";
  }
}
