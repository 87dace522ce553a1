package dev.versio.operator.admission;

import dev.versio.api.ApiGroup;
import dev.versio.operator.OperatorOptions;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfiguration;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhookConfigurationBuilder;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfig;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.WebhookClientConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The ValidatingWebhookConfiguration that sends Versio's three kinds to the operator: always all
 * three webhooks (a disabled config kind is then rejected with a message rather than let through),
 * {@code failurePolicy: Fail}, reached by URL (local development, tests) or through the operator's
 * Service.
 */
public final class WebhookRegistration {
  /** The server-side-apply field manager. */
  public static final String FIELD_MANAGER = "versio-operator";

  /** The apiserver gives up on a review after this long (then {@code Fail} rejects). */
  public static final int TIMEOUT_SECONDS = 10;

  /** One webhook: its name, path, kind and operations. */
  public enum Webhook {
    CRD_CONFIG(
        "vcrdconversionconfig.versio.dev",
        "/validate/crdconversionconfig",
        "CRDConversionConfig",
        "crdconversionconfigs",
        List.of("CREATE", "UPDATE")),
    XRD_CONFIG(
        "vxrdconversionconfig.versio.dev",
        "/validate/xrdconversionconfig",
        "XRDConversionConfig",
        "xrdconversionconfigs",
        List.of("CREATE", "UPDATE")),
    SERVER(
        "vconversionwebhookserver.versio.dev",
        "/validate/conversionwebhookserver",
        "ConversionWebhookServer",
        "conversionwebhookservers",
        List.of("CREATE", "UPDATE", "DELETE"));

    private final String webhookName;
    private final String path;
    private final String kind;
    private final String resource;
    private final List<String> operations;

    Webhook(
        String webhookName, String path, String kind, String resource, List<String> operations) {
      this.webhookName = webhookName;
      this.path = path;
      this.kind = kind;
      this.resource = resource;
      this.operations = operations;
    }

    public String webhookName() {
      return webhookName;
    }

    public String path() {
      return path;
    }

    public String kind() {
      return kind;
    }

    /** The webhook served at {@code path}, or null. */
    public static Webhook byPath(String path) {
      return Arrays.stream(values()).filter(w -> w.path.equals(path)).findFirst().orElse(null);
    }
  }

  private WebhookRegistration() {}

  /** The served paths, for messages. */
  static String paths() {
    return Arrays.stream(Webhook.values()).map(Webhook::path).collect(Collectors.joining(", "));
  }

  /**
   * The host names the serving certificate must cover: the URL's host in URL mode; otherwise the
   * Service's in-cluster names.
   */
  public static List<String> hosts(OperatorOptions options) {
    var admission = options.admission();
    if (admission.url() != null) {
      var host = admission.url().getHost();
      if (host == null || host.isBlank()) {
        throw new IllegalArgumentException(
            "--admission-url " + admission.url() + " has no host; use https://HOST:PORT");
      }
      return List.of(host);
    }
    var svc = admission.serviceName();
    var ns = options.namespace();
    return List.of(
        svc, svc + "." + ns, svc + "." + ns + ".svc", svc + "." + ns + ".svc.cluster.local");
  }

  /** The desired configuration, trusting {@code caBundleBase64}. */
  public static ValidatingWebhookConfiguration desired(
      OperatorOptions options, String caBundleBase64) {
    var admission = options.admission();
    var webhooks =
        Arrays.stream(Webhook.values())
            .map(w -> webhook(w, clientConfig(options, w, caBundleBase64)))
            .toList();
    return new ValidatingWebhookConfigurationBuilder()
        .withNewMetadata()
        .withName(admission.webhookConfiguration())
        .addToLabels("app.kubernetes.io/managed-by", FIELD_MANAGER)
        .endMetadata()
        .withWebhooks(webhooks)
        .build();
  }

  /** Server-side applies {@code desired} (field manager {@value #FIELD_MANAGER}, forced). */
  public static void apply(KubernetesClient client, ValidatingWebhookConfiguration desired) {
    client.resource(desired).fieldManager(FIELD_MANAGER).forceConflicts().serverSideApply();
  }

  private static WebhookClientConfig clientConfig(
      OperatorOptions options, Webhook webhook, String caBundleBase64) {
    var admission = options.admission();
    var config = new WebhookClientConfigBuilder().withCaBundle(caBundleBase64);
    if (admission.url() != null) {
      var base = admission.url().toString();
      while (base.endsWith("/")) {
        base = base.substring(0, base.length() - 1);
      }
      return config.withUrl(base + webhook.path()).build();
    }
    return config
        .withNewService()
        .withNamespace(options.namespace())
        .withName(admission.serviceName())
        .withPort(admission.servicePort())
        .withPath(webhook.path())
        .endService()
        .build();
  }

  private static ValidatingWebhook webhook(Webhook webhook, WebhookClientConfig clientConfig) {
    return new ValidatingWebhookBuilder()
        .withName(webhook.webhookName())
        .withClientConfig(clientConfig)
        .addNewRule()
        .withApiGroups(ApiGroup.GROUP)
        .withApiVersions(ApiGroup.VERSION)
        .withResources(webhook.resource)
        .withOperations(webhook.operations)
        .withScope("Cluster")
        .endRule()
        .withAdmissionReviewVersions("v1")
        .withSideEffects("None")
        .withMatchPolicy("Equivalent")
        .withFailurePolicy("Fail")
        .withTimeoutSeconds(TIMEOUT_SECONDS)
        .build();
  }
}
