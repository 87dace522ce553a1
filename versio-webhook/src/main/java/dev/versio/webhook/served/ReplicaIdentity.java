package dev.versio.webhook.served;

import java.util.Objects;

/**
 * Which replica publishes: its Pod (from the downward API: {@code POD_NAME}, {@code POD_UID},
 * {@code POD_NAMESPACE}), or in URL mode without a Pod the same three from flags.
 *
 * @param podName names the Leases ({@code versio-served-<podName>})
 * @param podUid owns the Leases (they go when the Pod goes); null without a Pod
 * @param namespace where the Leases live
 */
public record ReplicaIdentity(String podName, String podUid, String namespace) {
  public ReplicaIdentity {
    Objects.requireNonNull(podName, "podName");
    Objects.requireNonNull(namespace, "namespace");
    if (podName.isBlank() || namespace.isBlank()) {
      throw new IllegalArgumentException(
          "publishing served targets needs the pod name and namespace (--pod-name, --pod-namespace"
              + " or the POD_NAME and POD_NAMESPACE environment from the downward API)");
    }
    if (podUid != null && podUid.isBlank()) {
      podUid = null;
    }
  }

  /** The Lease of part {@code index}: {@code versio-served-<pod>}, then {@code -1}, {@code -2}… */
  public String leaseName(int index) {
    return "versio-served-" + podName + (index == 0 ? "" : "-" + index);
  }
}
