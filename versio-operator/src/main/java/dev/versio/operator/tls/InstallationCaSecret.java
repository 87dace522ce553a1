package dev.versio.operator.tls;

import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the {@link InstallationCa} in a Secret of the operator's namespace, which only the operator
 * reads (the webhook servers' pods mount their own Secrets, which never hold a CA key): {@value
 * #BUNDLE} (the bundle), {@value #SIGNER_CRT} and {@value #SIGNER_KEY}, and during a rotation
 * {@value #NEXT_CRT}, {@value #NEXT_KEY} and the annotation {@value #NEXT_SINCE}. Creation and
 * every step of the rotation are optimistic (create, or update at the read resource version):
 * operator replicas that race take the winner's state.
 */
public final class InstallationCaSecret {
  /** The Secret's name in the operator's namespace. */
  public static final String NAME = "versio-webhook-ca";

  static final String BUNDLE = "ca.crt";
  static final String SIGNER_CRT = "signer.crt";
  static final String SIGNER_KEY = "signer.key";
  static final String NEXT_CRT = "next.crt";
  static final String NEXT_KEY = "next.key";
  static final String NEXT_SINCE = "versio.dev/next-ca-trusted-since";

  private static final Logger LOG = LoggerFactory.getLogger(InstallationCaSecret.class);
  private static final int ATTEMPTS = 5;

  private final KubernetesClient client;
  private final String namespace;
  private final Clock clock;
  private final InstallationCa.Policy policy;

  public InstallationCaSecret(
      KubernetesClient client, String namespace, Clock clock, InstallationCa.Policy policy) {
    this.client = Objects.requireNonNull(client, "client");
    this.namespace = Objects.requireNonNull(namespace, "namespace");
    this.clock = Objects.requireNonNull(clock, "clock");
    this.policy = Objects.requireNonNull(policy, "policy");
  }

  public String namespace() {
    return namespace;
  }

  /**
   * The CA as it must be now: read (from {@code cached} when given, else from the apiserver),
   * created when missing, and advanced through its rotation when a step is due — a write only then.
   */
  public InstallationCa ensure(Secret cached) {
    var secret = cached;
    for (int attempt = 1; ; attempt++) {
      if (secret == null || attempt > 1) {
        secret = client.secrets().inNamespace(namespace).withName(NAME).get();
      }
      var now = clock.instant();
      try {
        if (secret == null) {
          var created = InstallationCa.create(now, policy);
          client.secrets().inNamespace(namespace).resource(newSecret(created)).create();
          LOG.info("created the webhook servers' CA in Secret {}/{}", namespace, NAME);
          return created;
        }
        var state = read(secret);
        var due = state.next(now, policy);
        if (due.equals(state)) {
          return state;
        }
        var updated = new SecretBuilder(secret).build(); // never change a cached object
        write(updated, due);
        client.secrets().inNamespace(namespace).resource(updated).update();
        LOG.info(
            "advanced the webhook servers' CA in Secret {}/{}: {} CA(s) trusted, next {}",
            namespace,
            NAME,
            due.trusted().size(),
            due.next() == null ? "none" : "trusted since " + due.nextTrustedSince());
        return due;
      } catch (KubernetesClientException e) {
        if (!retried(e) || attempt >= ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** The CA a Secret holds; fails naming what is missing or unreadable. */
  public static InstallationCa read(Secret secret) {
    var data = secret.getData() == null ? Map.<String, String>of() : secret.getData();
    var bundle = new ArrayList<String>();
    for (var certificate : Pem.certificates(decode(data, BUNDLE))) {
      bundle.add(Pem.certificate(certificate));
    }
    var signer = new SelfSignedCa.CaPair(decode(data, SIGNER_CRT), decode(data, SIGNER_KEY));
    SelfSignedCa.CaPair next = null;
    Instant since = null;
    if (data.containsKey(NEXT_CRT)) {
      next = new SelfSignedCa.CaPair(decode(data, NEXT_CRT), decode(data, NEXT_KEY));
      var annotations = secret.getMetadata().getAnnotations();
      var text = annotations == null ? null : annotations.get(NEXT_SINCE);
      if (text == null) {
        throw new IllegalArgumentException(
            "Secret " + NAME + " has " + NEXT_CRT + " but no annotation " + NEXT_SINCE);
      }
      try {
        since = Instant.parse(text);
      } catch (java.time.format.DateTimeParseException e) {
        throw new IllegalArgumentException(
            "Secret " + NAME + " annotation " + NEXT_SINCE + " is not an instant: " + text, e);
      }
    }
    var ca = new InstallationCa(bundle, signer, next, since);
    var problem = ca.problem();
    if (problem != null) {
      throw new IllegalArgumentException("Secret " + NAME + ": " + problem);
    }
    return ca;
  }

  private Secret newSecret(InstallationCa ca) {
    var secret =
        new SecretBuilder()
            .withNewMetadata()
            .withName(NAME)
            .withNamespace(namespace)
            .addToLabels("app.kubernetes.io/managed-by", "versio-operator")
            .endMetadata()
            .withType("Opaque")
            .build();
    write(secret, ca);
    return secret;
  }

  static void write(Secret secret, InstallationCa ca) {
    var data = new HashMap<String, String>();
    data.put(BUNDLE, base64(ca.bundlePem()));
    data.put(SIGNER_CRT, base64(ca.signer().certificatePem()));
    data.put(SIGNER_KEY, base64(ca.signer().privateKeyPem()));
    var annotations =
        new HashMap<String, String>(
            secret.getMetadata().getAnnotations() == null
                ? Map.of()
                : secret.getMetadata().getAnnotations());
    annotations.remove(NEXT_SINCE);
    if (ca.next() != null) {
      data.put(NEXT_CRT, base64(ca.next().certificatePem()));
      data.put(NEXT_KEY, base64(ca.next().privateKeyPem()));
      annotations.put(NEXT_SINCE, ca.nextTrustedSince().toString());
    }
    secret.setData(data);
    secret.getMetadata().setAnnotations(annotations);
  }

  private static String decode(Map<String, String> data, String key) {
    var value = data.get(key);
    if (value == null || value.isBlank()) {
      throw new IllegalArgumentException("Secret " + NAME + " has no " + key);
    }
    return new String(Base64.getDecoder().decode(value), StandardCharsets.US_ASCII);
  }

  private static String base64(String pem) {
    return Base64.getEncoder().encodeToString(pem.getBytes(StandardCharsets.US_ASCII));
  }

  private static boolean retried(KubernetesClientException e) {
    return e.getCode() == HttpURLConnection.HTTP_CONFLICT;
  }
}
