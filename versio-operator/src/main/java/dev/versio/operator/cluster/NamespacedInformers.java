package dev.versio.operator.cluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * One kind of object cached in a fixed set of namespaces: one informer per namespace, so the
 * operator needs list and watch only where it runs servers, or a single cluster-wide informer when
 * servers may live anywhere.
 *
 * @param <T> the kind
 */
final class NamespacedInformers<T extends HasMetadata> {
  private final SharedIndexInformer<T> anyNamespace;
  private final Map<String, SharedIndexInformer<T>> byNamespace;

  /**
   * @param namespaces where to cache; empty = every namespace
   * @param informer makes the informer of one namespace, or of all of them for null
   */
  NamespacedInformers(List<String> namespaces, Function<String, SharedIndexInformer<T>> informer) {
    if (namespaces.isEmpty()) {
      this.anyNamespace = informer.apply(null);
      this.byNamespace = Map.of();
    } else {
      this.anyNamespace = null;
      var map = new LinkedHashMap<String, SharedIndexInformer<T>>();
      for (var namespace : namespaces) {
        map.put(namespace, informer.apply(namespace));
      }
      this.byNamespace = map;
    }
  }

  /** The cached object, or empty when it does not exist or its namespace is not cached. */
  Optional<T> get(String namespace, String name) {
    var informer = anyNamespace != null ? anyNamespace : byNamespace.get(namespace);
    return informer == null
        ? Optional.empty()
        : Optional.ofNullable(informer.getStore().getByKey(namespace + "/" + name));
  }

  void addEventHandler(ResourceEventHandler<T> handler) {
    for (var informer : informers()) {
      informer.addEventHandler(handler);
    }
  }

  List<SharedIndexInformer<T>> informers() {
    return anyNamespace != null ? List.of(anyNamespace) : List.copyOf(byNamespace.values());
  }
}
