package dev.versio.coordination.kubernetes;

import dev.versio.coordination.core.CoordinationSettings;
import dev.versio.coordination.core.MemberRecord;
import dev.versio.coordination.core.ShardLease;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseBuilder;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.util.Map;
import java.util.Optional;

/** Reads and writes the coordination records in Lease objects. */
final class LeaseCodec {
  private final LeaseNames names;
  private final CoordinationSettings settings;

  LeaseCodec(LeaseNames names, CoordinationSettings settings) {
    this.names = names;
    this.settings = settings;
  }

  static boolean isMember(Lease lease) {
    return LeaseNames.ROLE_MEMBER.equals(label(lease, LeaseNames.ROLE_LABEL));
  }

  static boolean isShard(Lease lease) {
    return LeaseNames.ROLE_SHARD.equals(label(lease, LeaseNames.ROLE_LABEL));
  }

  /**
   * The member record of a member Lease; empty only without a holder. Unreadable annotations do not
   * hide a member (its liveness still counts): a bad shard count reads as -1, so it disagrees with
   * everyone, and a missing incarnation as "", which the planner treats as "unknown, fence first".
   */
  Optional<MemberRecord> member(Lease lease) {
    var spec = lease.getSpec();
    if (spec == null || spec.getHolderIdentity() == null) {
      return Optional.empty();
    }
    return Optional.of(
        new MemberRecord(
            spec.getHolderIdentity(),
            annotation(lease, LeaseNames.INCARNATION),
            parseOr(annotation(lease, LeaseNames.SHARD_COUNT), -1),
            annotation(lease, LeaseNames.HASH_VERSION),
            annotation(lease, LeaseNames.BUILD_VERSION),
            spec.getLeaseDurationSeconds() == null || spec.getLeaseDurationSeconds() <= 0
                ? settings.leaseDuration()
                : Duration.ofSeconds(spec.getLeaseDurationSeconds()),
            created(lease),
            lease.getMetadata().getResourceVersion(),
            annotation(lease, LeaseNames.FENCED_BY)));
  }

  private static Instant created(Lease lease) {
    try {
      var created = lease.getMetadata().getCreationTimestamp();
      return created == null ? Instant.EPOCH : Instant.parse(created);
    } catch (java.time.format.DateTimeParseException e) {
      return Instant.EPOCH;
    }
  }

  private static int parseOr(String text, int fallback) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      return fallback;
    }
  }

  /** The shard record of a shard Lease; empty if the name is not one of ours. */
  Optional<ShardLease> shard(Lease lease) {
    var name = lease.getMetadata().getName();
    var prefix = names.shard(0).substring(0, names.shard(0).length() - 1);
    if (!name.startsWith(prefix)) {
      return Optional.empty();
    }
    try {
      int shard = Integer.parseInt(name.substring(prefix.length()));
      var spec = lease.getSpec();
      var holder = spec == null || spec.getHolderIdentity() == null ? "" : spec.getHolderIdentity();
      var transitions =
          spec == null || spec.getLeaseTransitions() == null ? 0 : spec.getLeaseTransitions();
      return Optional.of(
          new ShardLease(
              shard,
              holder,
              annotation(lease, LeaseNames.INCARNATION),
              transitions,
              lease.getMetadata().getResourceVersion()));
    } catch (NumberFormatException e) {
      return Optional.empty();
    }
  }

  Lease newMember(String replicaId, String incarnation, ZonedDateTime now) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(names.member(replicaId))
        .withLabels(
            Map.of(
                LeaseNames.GROUP_LABEL,
                names.group(),
                LeaseNames.ROLE_LABEL,
                LeaseNames.ROLE_MEMBER))
        .withAnnotations(memberAnnotations(incarnation))
        .endMetadata()
        .withNewSpec()
        .withHolderIdentity(replicaId)
        .withLeaseDurationSeconds(leaseSeconds())
        .withAcquireTime(now)
        .withRenewTime(now)
        .endSpec()
        .build();
  }

  /** {@code current} re-registered for {@code incarnation}: unfenced, renewed now. */
  Lease reregister(Lease current, String replicaId, String incarnation, ZonedDateTime now) {
    var fresh = newMember(replicaId, incarnation, now);
    return new LeaseBuilder(current)
        .editMetadata()
        .withLabels(fresh.getMetadata().getLabels())
        .withAnnotations(fresh.getMetadata().getAnnotations())
        .endMetadata()
        .withSpec(fresh.getSpec())
        .build();
  }

  Lease renew(Lease current, ZonedDateTime now) {
    var status = memberStatus.get();
    var renewed = new LeaseBuilder(current).editSpec().withRenewTime(now).endSpec();
    if (!status.isEmpty()) {
      renewed = renewed.editMetadata().addToAnnotations(status).endMetadata();
    }
    return renewed.build();
  }

  private volatile java.util.function.Supplier<java.util.Map<String, String>> memberStatus =
      java.util.Map::of;

  /** Annotations published on the member Lease with every renewal (for status pages). */
  void publishWithRenewals(java.util.function.Supplier<java.util.Map<String, String>> status) {
    memberStatus = status;
  }

  Lease fence(Lease current, String by) {
    return new LeaseBuilder(current)
        .editMetadata()
        .addToAnnotations(LeaseNames.FENCED_BY, by)
        .endMetadata()
        .build();
  }

  Lease newShard(int shard) {
    return new LeaseBuilder()
        .withNewMetadata()
        .withName(names.shard(shard))
        .withLabels(
            Map.of(
                LeaseNames.GROUP_LABEL,
                names.group(),
                LeaseNames.ROLE_LABEL,
                LeaseNames.ROLE_SHARD))
        .endMetadata()
        .withNewSpec()
        .withLeaseTransitions(0)
        .endSpec()
        .build();
  }

  Lease acquire(Lease current, String replicaId, String incarnation, ZonedDateTime now) {
    int transitions =
        current.getSpec().getLeaseTransitions() == null
            ? 0
            : current.getSpec().getLeaseTransitions();
    return new LeaseBuilder(current)
        .editMetadata()
        .addToAnnotations(LeaseNames.INCARNATION, incarnation)
        .endMetadata()
        .editSpec()
        .withHolderIdentity(replicaId)
        .withLeaseTransitions(transitions + 1)
        .withAcquireTime(now)
        .withRenewTime(now)
        .withLeaseDurationSeconds(leaseSeconds())
        .endSpec()
        .build();
  }

  Lease release(Lease current) {
    return new LeaseBuilder(current)
        .editMetadata()
        .addToAnnotations(LeaseNames.INCARNATION, "")
        .endMetadata()
        .editSpec()
        .withHolderIdentity(null)
        .endSpec()
        .build();
  }

  private Map<String, String> memberAnnotations(String incarnation) {
    return Map.of(
        LeaseNames.INCARNATION, incarnation,
        LeaseNames.SHARD_COUNT, Integer.toString(settings.shardCount()),
        LeaseNames.HASH_VERSION, settings.hashVersion(),
        LeaseNames.BUILD_VERSION, settings.buildVersion());
  }

  private int leaseSeconds() {
    return (int) Math.max(1, settings.leaseDuration().toSeconds());
  }

  private static String annotation(Lease lease, String key) {
    var annotations = lease.getMetadata().getAnnotations();
    var value = annotations == null ? null : annotations.get(key);
    return value == null ? "" : value;
  }

  private static String label(Lease lease, String key) {
    var labels = lease.getMetadata().getLabels();
    return labels == null ? null : labels.get(key);
  }
}
