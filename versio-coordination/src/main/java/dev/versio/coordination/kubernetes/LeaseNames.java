package dev.versio.coordination.kubernetes;

import java.util.Objects;

/**
 * Names and labels of the Leases of one group: {@code <group>-member-<id>} per replica and {@code
 * <group>-shard-<n>} per shard, all labelled {@value #GROUP_LABEL}{@code =<group>}.
 */
public record LeaseNames(String group) {
  public static final String GROUP_LABEL = "versio.dev/lease-group";
  public static final String ROLE_LABEL = "versio.dev/lease-role";
  public static final String INCARNATION = "versio.dev/incarnation";
  public static final String SHARD_COUNT = "versio.dev/shard-count";
  public static final String HASH_VERSION = "versio.dev/hash-version";
  public static final String BUILD_VERSION = "versio.dev/build-version";
  public static final String FENCED_BY = "versio.dev/fenced-by";
  public static final String ROLE_MEMBER = "member";
  public static final String ROLE_SHARD = "shard";

  public LeaseNames {
    Objects.requireNonNull(group, "group");
  }

  public String member(String replicaId) {
    return group + "-member-" + replicaId;
  }

  public String shard(int shard) {
    return group + "-shard-" + shard;
  }

  /** Replica ids become part of a Lease name, so they must be DNS-label-like. */
  public static String requireValidReplicaId(String replicaId) {
    Objects.requireNonNull(replicaId, "replicaId");
    if (!replicaId.matches("[a-z0-9]([-a-z0-9.]{0,180}[a-z0-9])?")) {
      throw new IllegalArgumentException(
          "replica id '"
              + replicaId
              + "' must be lowercase letters, digits, '-' and '.', like a pod name;"
              + " pass the pod name (metadata.name through the Downward API)");
    }
    return replicaId;
  }
}
