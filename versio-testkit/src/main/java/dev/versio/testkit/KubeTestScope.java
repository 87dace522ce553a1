package dev.versio.testkit;

import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Locale;
import java.util.Objects;

/**
 * Names for one test on a shared control plane: every cluster-scoped object a test creates (CRDs,
 * API groups, cluster roles) carries the scope's suffix, and namespaced objects go into {@link
 * #namespace()}. Namespaces are never deleted: the test apiserver runs no namespace controller, so
 * a deleted namespace would only hang in Terminating.
 */
public final class KubeTestScope {
  private final String suffix;
  private final KubernetesClient admin;
  private String namespace;

  KubeTestScope(String suffix, KubernetesClient admin) {
    if (!suffix.matches("[a-z0-9]{1,12}")) {
      throw new IllegalArgumentException("suffix must be 1-12 lowercase letters or digits");
    }
    this.suffix = suffix;
    this.admin = Objects.requireNonNull(admin, "admin");
  }

  /** The suffix unique to this test, e.g. {@code k3x9q}. */
  public String suffix() {
    return suffix;
  }

  /** {@code base} made unique to this test: {@code base-<suffix>}, lower case. */
  public String name(String base) {
    return (base + "-" + suffix).toLowerCase(Locale.ROOT);
  }

  /** An API group unique to this test, e.g. {@code k3x9q.example.test}. */
  public String apiGroup() {
    return suffix + ".example.test";
  }

  /** A namespace for this test, created on first use. */
  public synchronized String namespace() {
    if (namespace == null) {
      var name = "t-" + suffix;
      admin
          .namespaces()
          .resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build())
          .create();
      namespace = name;
    }
    return namespace;
  }
}
