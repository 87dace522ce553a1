package dev.versio.operator.server.children;

import java.util.Objects;
import java.util.Set;

/**
 * Which API versions the cluster serves for the children whose API moved between Kubernetes
 * releases: {@code autoscaling/v2} (1.23+) else {@code autoscaling/v2beta2}, {@code policy/v1}
 * (1.21+) else {@code policy/v1beta1}. Chosen from discovery, so one operator runs on old and new
 * clusters alike. Also whether cert-manager's Certificate API is installed, for servers that name a
 * cert-manager issuer.
 *
 * @param hpa the apiVersion of HorizontalPodAutoscalers
 * @param pdb the apiVersion of PodDisruptionBudgets
 * @param certManager whether {@value #CERTIFICATE_API} is served
 */
public record ChildApis(String hpa, String pdb, boolean certManager) {
  public static final String CERTIFICATE_API = "cert-manager.io/v1";
  public static final ChildApis NEWEST = new ChildApis("autoscaling/v2", "policy/v1", true);

  public ChildApis {
    Objects.requireNonNull(hpa, "hpa");
    Objects.requireNonNull(pdb, "pdb");
  }

  /** The newest versions among {@code served} (group/version strings from discovery). */
  public static ChildApis from(Set<String> served) {
    return new ChildApis(
        served.contains("autoscaling/v2") ? "autoscaling/v2" : "autoscaling/v2beta2",
        served.contains("policy/v1") ? "policy/v1" : "policy/v1beta1",
        served.contains(CERTIFICATE_API));
  }
}
