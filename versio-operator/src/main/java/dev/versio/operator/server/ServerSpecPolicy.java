package dev.versio.operator.server;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.api.server.ConversionWebhookServerSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a ConversionWebhookServer may ask the operator to run on its author's behalf. The operator
 * creates the server's Deployment with its own rights, so without these rules whoever may write a
 * server could run any image, under any ServiceAccount (the operator's own included), in any
 * namespace, with any volume: writing a server would be as strong as cluster-admin. The rules: the
 * image comes from an allowed repository, the ServiceAccount is the one the operator makes for the
 * server or one the operator's admin allowed by name, the children live in the operator's namespace
 * or one the admin allowed, the extra volumes are of types that read nothing the pod could not read
 * anyway (emptyDir, configMap, downwardAPI, and projected configMap, downwardAPI and
 * serviceAccountToken sources), and no extra environment variable reads a Secret.
 *
 * @param operatorNamespace the operator's namespace (always allowed for children)
 * @param namespaces further namespaces children may live in; {@value #ANY} allows every namespace
 * @param imageRepositories allowed image repositories: an exact repository, a prefix ending in
 *     {@code /}, or {@value #ANY}; a server that names no image runs the operator's and is always
 *     allowed
 * @param serviceAccounts ServiceAccounts, as {@code namespace/name}, a server may name in {@code
 *     spec.serviceAccountName}
 * @param operatorServiceAccount the operator's own ServiceAccount name in its namespace, or null
 *     when unknown; never allowed
 * @param urlMode whether a server may name {@code spec.url} (the operator then probes that address:
 *     off outside development, so a server author cannot use it to scan the cluster's network)
 */
public record ServerSpecPolicy(
    String operatorNamespace,
    Set<String> namespaces,
    List<String> imageRepositories,
    Set<String> serviceAccounts,
    String operatorServiceAccount,
    boolean urlMode) {

  /** The list entry that allows every namespace or every image repository. */
  public static final String ANY = "*";

  /** Volume types whose content a server's replicas may read. */
  static final Set<String> SAFE_VOLUME_TYPES = Set.of("emptyDir", "configMap", "downwardAPI");

  /** Sources of a projected volume whose content a server's replicas may read. */
  static final Set<String> SAFE_PROJECTED_SOURCES =
      Set.of("configMap", "downwardAPI", "serviceAccountToken");

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  public ServerSpecPolicy {
    Objects.requireNonNull(operatorNamespace, "operatorNamespace");
    namespaces = Set.copyOf(namespaces);
    imageRepositories = List.copyOf(imageRepositories);
    serviceAccounts = Set.copyOf(serviceAccounts);
    if (imageRepositories.isEmpty()) {
      throw new IllegalArgumentException(
          "--webhook-server-image-repositories must allow at least one repository (the default is"
              + " the repository of --webhook-server-image)");
    }
    for (var account : serviceAccounts) {
      var slash = account.indexOf('/');
      if (slash <= 0 || slash == account.length() - 1 || account.indexOf('/', slash + 1) >= 0) {
        throw new IllegalArgumentException(
            "--webhook-server-service-accounts: '"
                + account
                + "' is not namespace/name, e.g. versio-system/versio-webhook");
      }
    }
    if (operatorServiceAccount != null
        && serviceAccounts.contains(operatorNamespace + "/" + operatorServiceAccount)) {
      throw new IllegalArgumentException(
          "--webhook-server-service-accounts names the operator's own ServiceAccount "
              + operatorNamespace
              + "/"
              + operatorServiceAccount
              + ": a server running under it would hold every right of the operator; remove it");
    }
  }

  /**
   * The policy that allows only the operator's namespace, the repository of {@code defaultImage}
   * and the ServiceAccounts the operator makes.
   */
  public static ServerSpecPolicy strict(String operatorNamespace, String defaultImage) {
    return new ServerSpecPolicy(
        operatorNamespace, Set.of(), List.of(repositoryOf(defaultImage)), Set.of(), null, false);
  }

  /** The repository of an image reference: without its digest and tag. */
  public static String repositoryOf(String image) {
    var ref = image.strip();
    var at = ref.indexOf('@');
    if (at >= 0) {
      ref = ref.substring(0, at);
    }
    var colon = ref.lastIndexOf(':');
    if (colon > ref.lastIndexOf('/')) {
      ref = ref.substring(0, colon);
    }
    return ref;
  }

  /** Whether every namespace is allowed (the operator then watches its children cluster-wide). */
  public boolean anyNamespace() {
    return namespaces.contains(ANY);
  }

  /**
   * The namespaces children may live in, the operator's first; empty when {@link #anyNamespace}.
   */
  public List<String> childNamespaces() {
    if (anyNamespace()) {
      return List.of();
    }
    var out = new ArrayList<String>();
    out.add(operatorNamespace);
    new TreeSet<>(namespaces).stream().filter(n -> !n.equals(operatorNamespace)).forEach(out::add);
    return List.copyOf(out);
  }

  /**
   * Why the operator must not run {@code server} as written: one sentence per broken rule naming
   * the field and the fix; empty when it may.
   */
  public List<String> refusals(ConversionWebhookServer server) {
    var spec = server.getSpec();
    if (spec != null && spec.url != null && !spec.url.isBlank()) {
      // URL mode: the operator runs nothing for it, but probes the address it names
      return urlMode
          ? List.of()
          : List.of(
              "spec.url is set, but URL mode is off on this operator (the operator would probe"
                  + " any address a server names); remove spec.url to run the server in the"
                  + " cluster, or have the operator's admin turn URL mode on for development"
                  + " (--allow-url-mode, chart value allowUrlMode)");
    }
    if (spec == null) {
      return List.of();
    }
    var out = new ArrayList<String>();
    var namespace =
        spec.namespace == null || spec.namespace.isBlank() ? operatorNamespace : spec.namespace;
    if (!anyNamespace() && !childNamespaces().contains(namespace)) {
      out.add(
          "spec.namespace '"
              + namespace
              + "' is not a namespace the operator runs servers in ("
              + String.join(", ", childNamespaces())
              + "); use one of them, or have the operator's admin add it"
              + " (--webhook-server-namespaces, chart value webhookServerNamespaces)");
    }
    image(spec).ifPresent(out::add);
    if (spec.serviceAccountName != null && !spec.serviceAccountName.isBlank()) {
      var account = namespace + "/" + spec.serviceAccountName;
      if (namespace.equals(operatorNamespace)
          && spec.serviceAccountName.equals(operatorServiceAccount)) {
        out.add(
            "spec.serviceAccountName '"
                + spec.serviceAccountName
                + "' is the operator's own ServiceAccount, whose rights a server's replicas must"
                + " never hold; remove the field (the operator makes a ServiceAccount for the"
                + " server with only the rights its replicas need)");
      } else if (!serviceAccounts.contains(account)) {
        out.add(
            "spec.serviceAccountName '"
                + spec.serviceAccountName
                + "' ("
                + account
                + ") is not a ServiceAccount servers may run under; remove the field (the operator"
                + " makes one with only the rights the replicas need), or have the operator's admin"
                + " allow it (--webhook-server-service-accounts, chart value"
                + " webhookServerServiceAccounts)");
      }
    }
    if (spec.extraVolumes != null) {
      for (int i = 0; i < spec.extraVolumes.size(); i++) {
        volume(i, spec.extraVolumes.get(i)).ifPresent(out::add);
      }
    }
    if (spec.extraEnv != null) {
      for (int i = 0; i < spec.extraEnv.size(); i++) {
        var env = spec.extraEnv.get(i);
        if (env != null
            && env.getValueFrom() != null
            && env.getValueFrom().getSecretKeyRef() != null) {
          out.add(
              "spec.extraEnv["
                  + i
                  + "] ("
                  + env.getName()
                  + ") reads Secret '"
                  + env.getValueFrom().getSecretKeyRef().getName()
                  + "'; a server may not hand Secrets of its namespace to its replicas: put the"
                  + " value in a ConfigMap, or set it with a value");
        }
      }
    }
    return List.copyOf(out);
  }

  private java.util.Optional<String> image(ConversionWebhookServerSpec spec) {
    if (spec.image == null || spec.image.repository == null || spec.image.repository.isBlank()) {
      return java.util.Optional.empty();
    }
    var repository = spec.image.repository.strip();
    for (var allowed : imageRepositories) {
      if (allowed.equals(ANY)
          || allowed.equals(repository)
          || (allowed.endsWith("/") && repository.startsWith(allowed))) {
        return java.util.Optional.empty();
      }
    }
    return java.util.Optional.of(
        "spec.image.repository '"
            + repository
            + "' is not an allowed image repository ("
            + String.join(", ", imageRepositories)
            + "); remove spec.image to run the operator's own image, or have the operator's admin"
            + " allow the repository (--webhook-server-image-repositories, chart value"
            + " webhookServerImageRepositories)");
  }

  private static java.util.Optional<String> volume(int index, Volume volume) {
    if (volume == null) {
      return java.util.Optional.empty();
    }
    var field = "spec.extraVolumes[" + index + "] (" + volume.getName() + ")";
    var types = typesOf(volume);
    types.remove("name");
    var unsafe = new TreeSet<>(types);
    unsafe.removeAll(SAFE_VOLUME_TYPES);
    unsafe.remove("projected");
    if (!unsafe.isEmpty()) {
      return java.util.Optional.of(unsafeVolume(field, String.join(", ", unsafe)));
    }
    if (volume.getProjected() != null && volume.getProjected().getSources() != null) {
      for (var source : volume.getProjected().getSources()) {
        var kinds = new TreeSet<>(typesOf(source));
        kinds.removeAll(SAFE_PROJECTED_SOURCES);
        if (!kinds.isEmpty()) {
          return java.util.Optional.of(
              unsafeVolume(field + " projected source", String.join(", ", kinds)));
        }
      }
    }
    return java.util.Optional.empty();
  }

  private static String unsafeVolume(String field, String types) {
    return field
        + " is of type "
        + types
        + ", which could hand the replicas what their author may not read (a Secret, a node's"
        + " files, another claim); a server's extra volumes may be emptyDir, configMap,"
        + " downwardAPI, or projected from configMap, downwardAPI and serviceAccountToken";
  }

  /** The keys {@code value} serializes to: a volume's name and type, unknown types included. */
  private static Set<String> typesOf(Object value) {
    var tree = SERIALIZATION.convertValue(value, Map.class);
    var out = new TreeSet<String>();
    for (var key : tree.keySet()) {
      out.add(String.valueOf(key));
    }
    return out;
  }
}
