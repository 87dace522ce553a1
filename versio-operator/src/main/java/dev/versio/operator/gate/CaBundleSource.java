package dev.versio.operator.gate;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.cluster.ClusterCache;
import io.fabric8.kubernetes.api.model.Secret;
import java.nio.charset.StandardCharsets;
import java.util.Base64;

/**
 * The CA bundle the apiserver must trust to call a server: {@code spec.caBundle} in URL mode; in
 * Service mode {@code ca.crt} (else {@code tls.crt}) of the server's TLS Secret {@code
 * <n>-webhook-server-tls}, read from the label-scoped cache and, for an unlabelled Secret,
 * directly.
 */
public final class CaBundleSource {
  private final ClusterCache cache;
  private final String operatorNamespace;

  /** The bundle (base64 PEM) or what is missing. */
  public sealed interface Result {
    record Found(String base64) implements Result {}

    record Missing(String message) implements Result {}
  }

  public CaBundleSource(ClusterCache cache, String operatorNamespace) {
    this.cache = cache;
    this.operatorNamespace = operatorNamespace;
  }

  public static String secretName(String server) {
    return server + "-webhook-server-tls";
  }

  /** The namespace of a server's children. */
  public static String namespaceOf(ConversionWebhookServer server, String operatorNamespace) {
    var ns = server.getSpec() == null ? null : server.getSpec().namespace;
    return ns == null || ns.isBlank() ? operatorNamespace : ns;
  }

  public Result bundle(ConversionWebhookServer server) {
    var name = server.getMetadata().getName();
    var spec = server.getSpec();
    if (spec != null && spec.url != null) {
      return spec.caBundle == null || spec.caBundle.isBlank()
          ? new Result.Missing(
              "ConversionWebhookServer " + name + " sets spec.url but no spec.caBundle; add the CA")
          : new Result.Found(spec.caBundle.trim());
    }
    var namespace = namespaceOf(server, operatorNamespace);
    var secretName = secretName(name);
    var secret =
        cache
            .secret(namespace, secretName)
            .or(
                () ->
                    java.util.Optional.ofNullable(
                        cache
                            .client()
                            .secrets()
                            .inNamespace(namespace)
                            .withName(secretName)
                            .get()));
    if (secret.isEmpty()) {
      return new Result.Missing("Secret " + namespace + "/" + secretName + " does not exist yet");
    }
    return fromSecret(secret.get(), namespace + "/" + secretName);
  }

  static Result fromSecret(Secret secret, String where) {
    var data = secret.getData();
    for (var key : new String[] {"ca.crt", "tls.crt"}) {
      var value = data == null ? null : data.get(key);
      if (value != null && !value.isBlank()) {
        return new Result.Found(value.trim());
      }
      var plain = secret.getStringData() == null ? null : secret.getStringData().get(key);
      if (plain != null && !plain.isBlank()) {
        return new Result.Found(
            Base64.getEncoder().encodeToString(plain.getBytes(StandardCharsets.UTF_8)));
      }
    }
    return new Result.Missing("Secret " + where + " has neither ca.crt nor tls.crt");
  }
}
