package dev.versio.coordination.shard;

import java.util.Objects;

/**
 * The key of one Kubernetes object for sharding: {@code namespace/name}, or just {@code name} for
 * cluster-scoped kinds (empty namespace).
 */
public record ObjectKey(String namespace, String name) {
  public ObjectKey {
    Objects.requireNonNull(namespace, "namespace (use \"\" for a cluster-scoped object)");
    Objects.requireNonNull(name, "name");
    if (name.isEmpty()) {
      throw new IllegalArgumentException("an object key needs a name");
    }
    if (namespace.contains("/") || name.contains("/")) {
      throw new IllegalArgumentException(
          "namespace and name may not contain '/': " + namespace + "/" + name);
    }
  }

  public static ObjectKey clusterScoped(String name) {
    return new ObjectKey("", name);
  }

  /** The text that is hashed: {@code namespace/name}, or {@code name} when cluster-scoped. */
  public String text() {
    return namespace.isEmpty() ? name : namespace + "/" + name;
  }

  @Override
  public String toString() {
    return text();
  }
}
