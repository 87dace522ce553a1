package dev.versio.operator.admission;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.operator.OperatorOptions;
import io.fabric8.kubernetes.api.model.admissionregistration.v1.ValidatingWebhook;
import java.net.URI;
import org.junit.jupiter.api.Test;

class WebhookRegistrationTest {
  private static final OperatorOptions URL_MODE =
      OperatorOptions.defaults("ops")
          .withAdmission(OperatorOptions.Admission.local(0, URI.create("https://127.0.0.1:9443/")));
  private static final OperatorOptions SERVICE_MODE =
      OperatorOptions.defaults("ops")
          .withAdmission(
              new OperatorOptions.Admission(
                  9443, null, "versio-admission", 443, "tls", "versio-admission"));

  @Test
  void allThreeWebhooksAreRegisteredWithFailClosedSettings() {
    var vwc = WebhookRegistration.desired(URL_MODE.withSupport(true, false), "Q0E=");

    assertThat(vwc.getApiVersion()).isEqualTo("admissionregistration.k8s.io/v1");
    assertThat(vwc.getMetadata().getName()).isEqualTo("versio-admission");
    assertThat(vwc.getWebhooks())
        .extracting(ValidatingWebhook::getName)
        .containsExactly(
            "vcrdconversionconfig.versio.dev",
            "vxrdconversionconfig.versio.dev",
            "vconversionwebhookserver.versio.dev");
    assertThat(vwc.getWebhooks())
        .allSatisfy(
            w -> {
              assertThat(w.getAdmissionReviewVersions()).containsExactly("v1");
              assertThat(w.getSideEffects()).isEqualTo("None");
              assertThat(w.getMatchPolicy()).isEqualTo("Equivalent");
              assertThat(w.getFailurePolicy()).isEqualTo("Fail");
              assertThat(w.getTimeoutSeconds()).isEqualTo(10);
              assertThat(w.getClientConfig().getCaBundle()).isEqualTo("Q0E=");
              assertThat(w.getRules())
                  .singleElement()
                  .satisfies(
                      r -> {
                        assertThat(r.getApiGroups()).containsExactly("versio.dev");
                        assertThat(r.getApiVersions()).containsExactly("v1alpha1");
                        assertThat(r.getScope()).isEqualTo("Cluster");
                      });
            });
    assertThat(vwc.getWebhooks().get(0).getRules().getFirst().getResources())
        .containsExactly("crdconversionconfigs");
    assertThat(vwc.getWebhooks().get(0).getRules().getFirst().getOperations())
        .containsExactly("CREATE", "UPDATE");
    assertThat(vwc.getWebhooks().get(2).getRules().getFirst().getOperations())
        .containsExactly("CREATE", "UPDATE", "DELETE");
  }

  @Test
  void urlModePointsEachWebhookAtItsPathUnderTheUrl() {
    var vwc = WebhookRegistration.desired(URL_MODE, "Q0E=");

    assertThat(vwc.getWebhooks())
        .extracting(w -> w.getClientConfig().getUrl())
        .containsExactly(
            "https://127.0.0.1:9443/validate/crdconversionconfig",
            "https://127.0.0.1:9443/validate/xrdconversionconfig",
            "https://127.0.0.1:9443/validate/conversionwebhookserver");
    assertThat(vwc.getWebhooks().getFirst().getClientConfig().getService()).isNull();
    assertThat(WebhookRegistration.hosts(URL_MODE)).containsExactly("127.0.0.1");
  }

  @Test
  void serviceModeNamesTheServiceAndTheCertificateCoversItsDnsNames() {
    var vwc = WebhookRegistration.desired(SERVICE_MODE, "Q0E=");

    var service = vwc.getWebhooks().get(1).getClientConfig().getService();
    assertThat(service.getNamespace()).isEqualTo("ops");
    assertThat(service.getName()).isEqualTo("versio-admission");
    assertThat(service.getPort()).isEqualTo(443);
    assertThat(service.getPath()).isEqualTo("/validate/xrdconversionconfig");
    assertThat(vwc.getWebhooks().get(1).getClientConfig().getUrl()).isNull();
    assertThat(WebhookRegistration.hosts(SERVICE_MODE))
        .containsExactly(
            "versio-admission",
            "versio-admission.ops",
            "versio-admission.ops.svc",
            "versio-admission.ops.svc.cluster.local");
  }
}
