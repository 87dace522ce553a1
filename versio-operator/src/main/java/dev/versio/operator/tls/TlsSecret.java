package dev.versio.operator.tls;

import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.SecretList;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.NonNamespaceOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import java.net.HttpURLConnection;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps self-signed TLS material in a Secret ({@value TlsMaterial#CA_CRT}, {@value
 * TlsMaterial#TLS_CRT}, {@value TlsMaterial#TLS_KEY}): reuses it while the key matches the
 * certificate, the CA signed it, it covers the hosts and stays valid for at least the renewal
 * margin ({@link #RENEW_BEFORE} unless {@link #withLifetime} says otherwise); otherwise issues new
 * material, keeping the previous CA in the bundle while it is still valid. Several replicas may
 * call this at once: creation and replacement are optimistic (create, or update at the read
 * resource version), and whoever loses re-reads and takes the winner's material.
 */
public final class TlsSecret {
  /** Material expiring sooner than this is replaced. */
  public static final Duration RENEW_BEFORE = Duration.ofDays(30);

  private static final Logger LOG = LoggerFactory.getLogger(TlsSecret.class);
  private static final int ATTEMPTS = 5;
  private static final String WRITTEN_BY = "versio.dev/written-by";

  private final KubernetesClient client;
  private final String namespace;
  private final String name;
  private final Clock clock;
  private final Duration validity;
  private final Duration renewBefore;
  private final OwnerReference owner;
  private final String stamp;
  private final java.util.function.Supplier<InstallationCa> installation;

  /** Material valid for a year, renewed 30 days before it expires, owned by nothing. */
  public TlsSecret(KubernetesClient client, String namespace, String name, Clock clock) {
    this(
        client,
        namespace,
        name,
        clock,
        SelfSignedCa.DEFAULT_VALIDITY,
        RENEW_BEFORE,
        null,
        null,
        null);
  }

  private TlsSecret(
      KubernetesClient client,
      String namespace,
      String name,
      Clock clock,
      Duration validity,
      Duration renewBefore,
      OwnerReference owner,
      String stamp,
      java.util.function.Supplier<InstallationCa> installation) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.name = Objects.requireNonNull(name, "name");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.validity = Objects.requireNonNull(validity, "validity");
    this.renewBefore = Objects.requireNonNull(renewBefore, "renewBefore");
    if (!renewBefore.isPositive() || renewBefore.compareTo(validity) >= 0) {
      throw new IllegalArgumentException(
          "renewBefore ("
              + renewBefore
              + ") must be positive and shorter than the validity ("
              + validity
              + ")");
    }
    this.owner = owner;
    this.stamp = stamp;
    this.installation = installation;
  }

  /**
   * The same Secret with material valid for {@code validity}, renewed {@code renewBefore} it ends.
   */
  public TlsSecret withLifetime(Duration validity, Duration renewBefore) {
    return new TlsSecret(
        client, namespace, name, clock, validity, renewBefore, owner, stamp, installation);
  }

  /**
   * The same Secret, its certificates signed by the installation CA (read when material is issued)
   * and its {@code ca.crt} that CA's bundle ({@link ServerTls}): a renewal leaves {@code ca.crt} as
   * it was.
   */
  public TlsSecret signedBy(java.util.function.Supplier<InstallationCa> installation) {
    return new TlsSecret(
        client, namespace, name, clock, validity, renewBefore, owner, stamp, installation);
  }

  /**
   * The same Secret, whose writes record {@code stamp} (who wrote it, see {@link
   * dev.versio.operator.write.WriteStamp}) in the annotation {@code versio.dev/written-by}.
   */
  public TlsSecret stampedBy(String stamp) {
    return new TlsSecret(
        client, namespace, name, clock, validity, renewBefore, owner, stamp, installation);
  }

  /** The same Secret, created with {@code owner} as its controlling owner. */
  public TlsSecret ownedBy(OwnerReference owner) {
    return new TlsSecret(
        client, namespace, name, clock, validity, renewBefore, owner, stamp, installation);
  }

  /**
   * Returns material from the Secret that serves {@code hosts}, creating or replacing it when
   * needed.
   *
   * @param commonName names the CA and identifies the material's owner in logs
   * @throws KubernetesClientException when the Secret cannot be read or written
   */
  public TlsMaterial ensure(String commonName, List<String> hosts) {
    for (int attempt = 1; ; attempt++) {
      var secret = secrets().withName(name).get();
      var now = clock.instant();
      if (secret == null) {
        var fresh =
            installation == null
                ? SelfSignedCa.issue(commonName, hosts, now, validity)
                : ServerTls.desired(null, installation.get(), hosts, now, validity, renewBefore)
                    .orElseThrow();
        try {
          secrets().resource(newSecret(fresh)).create();
          LOG.info("created TLS Secret {}/{} for {}", namespace, name, hosts);
          return fresh;
        } catch (KubernetesClientException e) {
          if (!conflict(e) || attempt >= ATTEMPTS) {
            throw e;
          }
          continue; // another replica created it first: take theirs
        }
      }
      TlsMaterial existing = null;
      String problem;
      try {
        existing = TlsMaterial.fromSecretData(secret.getData());
        problem = existing.problem(hosts, now, renewBefore).orElse(null);
      } catch (IllegalArgumentException e) {
        problem = e.getMessage();
      }
      TlsMaterial fresh;
      if (installation != null) {
        var desired =
            ServerTls.desired(existing, installation.get(), hosts, now, validity, renewBefore);
        if (desired.isEmpty()) {
          return existing;
        }
        fresh = desired.get();
        problem = problem == null ? "ca.crt is not the installation CA's bundle" : problem;
      } else {
        if (problem == null) {
          return existing;
        }
        fresh = SelfSignedCa.issue(commonName, hosts, now, validity);
        if (existing != null) {
          fresh = fresh.keepingPreviousCa(existing, now);
        }
      }
      var data = new HashMap<>(secret.getData() == null ? Map.of() : secret.getData());
      data.putAll(fresh.secretData());
      secret.setData(data);
      if (stamp != null) {
        var annotations =
            new HashMap<String, String>(
                secret.getMetadata().getAnnotations() == null
                    ? Map.of()
                    : secret.getMetadata().getAnnotations());
        annotations.put(WRITTEN_BY, stamp);
        secret.getMetadata().setAnnotations(annotations);
      }
      try {
        secrets().resource(secret).update(); // at the read resourceVersion: 409 if it moved on
        LOG.info("replaced the TLS material in Secret {}/{}: {}", namespace, name, problem);
        return fresh;
      } catch (KubernetesClientException e) {
        if (!conflict(e) || attempt >= ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  private NonNamespaceOperation<Secret, SecretList, Resource<Secret>> secrets() {
    return client.secrets().inNamespace(namespace);
  }

  private Secret newSecret(TlsMaterial material) {
    return new SecretBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(namespace)
        .addToLabels("app.kubernetes.io/managed-by", "versio-operator")
        .withOwnerReferences(owner == null ? List.of() : List.of(owner))
        .withAnnotations(stamp == null ? Map.of() : Map.of(WRITTEN_BY, stamp))
        .endMetadata()
        .withType("kubernetes.io/tls")
        .withData(material.secretData())
        .build();
  }

  private static boolean conflict(KubernetesClientException e) {
    return e.getCode() == HttpURLConnection.HTTP_CONFLICT;
  }
}
