package dev.versio.coordination.kubernetes;

import dev.versio.coordination.core.CoordinationSettings;
import dev.versio.coordination.core.MemberObservations;
import dev.versio.coordination.core.MemberRecord;
import dev.versio.coordination.core.ReplicaOwnership;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZonedDateTime;
import java.util.Optional;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Registers and renews this replica's member Lease: renews every renew interval, retries a failed
 * renewal every retry interval, re-registers under a new incarnation when fenced or deleted, and
 * never registers over a Lease of its id that another live process still renews.
 */
final class MemberLeaseKeeper {
  private static final Logger LOG = LoggerFactory.getLogger(MemberLeaseKeeper.class);

  private final CoordinationSettings settings;
  private final String namespace;
  private final String replicaId;
  private final String leaseName;
  private final LeaseCodec codec;
  private final LeaseWriter writer;
  private final CoordinationMetrics metrics;
  private final Clock wallClock;
  private final InstantSource clock;
  private final MemberObservations observations;
  private final ReplicaOwnership ownership;
  private final Predicate<String> loseEverything;

  private Lease current;
  private Instant lastRenewStart = Instant.MIN;
  private Instant lastAttempt = Instant.MIN;
  private boolean lastAttemptFailed;
  private Instant registerNotBefore = Instant.MIN;
  private boolean waitingForOldIncarnation;

  /**
   * @param loseEverything drops every shard and starts a new incarnation, telling why; returns
   *     false if a write was still in flight (then others must wait a whole lease duration)
   */
  MemberLeaseKeeper(
      CoordinationSettings settings,
      String namespace,
      String replicaId,
      LeaseCodec codec,
      LeaseWriter writer,
      CoordinationMetrics metrics,
      Clock wallClock,
      InstantSource clock,
      MemberObservations observations,
      ReplicaOwnership ownership,
      Predicate<String> loseEverything) {
    this.settings = settings;
    this.namespace = namespace;
    this.replicaId = replicaId;
    this.leaseName = new LeaseNames(settings.group()).member(replicaId);
    this.codec = codec;
    this.writer = writer;
    this.metrics = metrics;
    this.wallClock = wallClock;
    this.clock = clock;
    this.observations = observations;
    this.ownership = ownership;
    this.loseEverything = loseEverything;
  }

  /** The member Lease as this replica last wrote it; null while not registered. */
  Lease current() {
    return current;
  }

  /** Whether a registration, renewal or retry is due now. */
  boolean due() {
    var now = clock.instant();
    boolean retryAllowed =
        !lastAttemptFailed || !now.isBefore(lastAttempt.plus(settings.retryInterval()));
    return current == null
        ? retryAllowed
        : !now.isBefore(lastRenewStart.plus(settings.renewInterval())) && retryAllowed;
  }

  /** How long until the next renewal or retry is due. */
  Duration untilDue() {
    var due =
        lastAttemptFailed
            ? lastAttempt.plus(settings.retryInterval())
            : lastRenewStart.plus(settings.renewInterval());
    var wait = Duration.between(clock.instant(), due);
    return wait.isNegative() ? Duration.ZERO : wait;
  }

  /** Registers or renews; a success moves the must-stop deadline of {@link ReplicaOwnership}. */
  void renew() {
    var start = clock.instant();
    lastAttempt = start;
    var now = ZonedDateTime.now(wallClock);
    try {
      Lease written;
      if (current == null) {
        var existing = writer.get(leaseName);
        if (existing != null && !mayRegisterOver(existing)) {
          lastAttemptFailed = true;
          return;
        }
        written =
            existing == null
                ? writer.create(codec.newMember(replicaId, ownership.incarnation(), now))
                : writer.update(
                    codec.reregister(existing, replicaId, ownership.incarnation(), now));
      } else {
        written = writer.update(codec.renew(current, now));
      }
      current = written;
      waitingForOldIncarnation = false;
      ownership.renewed(start);
      lastRenewStart = start;
      lastAttemptFailed = false;
      metrics.renewed(Duration.between(start, clock.instant()));
      metrics.leaseWrite("renew", "ok");
    } catch (KubernetesClientException e) {
      lastAttemptFailed = true;
      if (e.getCode() == 409 || e.getCode() == 404) {
        metrics.leaseWrite("renew", "conflict");
        recover();
      } else {
        metrics.leaseWrite("renew", "error");
        LOG.warn(
            "renewing member Lease {}/{} failed ({}); writes stop at {} unless a retry succeeds",
            namespace,
            leaseName,
            LeaseWriter.reason(e),
            ownership.permittedUntil());
      }
    }
  }

  /** Planned stop: deletes the member Lease if it is still as this replica wrote it. */
  void delete() {
    if (current == null) {
      return;
    }
    if (!writer.deleteIfUnchanged(leaseName, current.getMetadata().getResourceVersion())) {
      LOG.warn(
          "the member Lease {}/{} changed or could not be deleted on stop; the others take over"
              + " after {}",
          namespace,
          leaseName,
          settings.leaseDuration());
    }
  }

  /**
   * Whether this process may take over an existing member Lease of its id: only if it is fenced, or
   * was seen unchanged for a whole lease duration. Another live process with the same id (a
   * force-deleted pod on a partitioned node, a duplicate id) may still be writing until then.
   */
  private boolean mayRegisterOver(Lease existing) {
    var record = codec.member(existing);
    if (record.isEmpty() || record.get().fenced()) {
      return true;
    }
    if (!clock.instant().isBefore(registerNotBefore)
        && observations.expired(replicaId)
        && observations
            .record(replicaId)
            .map(r -> r.version().equals(existing.getMetadata().getResourceVersion()))
            .orElse(false)) {
      return true;
    }
    if (!waitingForOldIncarnation) {
      waitingForOldIncarnation = true;
      LOG.warn(
          "member Lease {}/{} belongs to incarnation {} of replica id {}, which renewed it less"
              + " than {} ago; waiting until it expires (replica ids must be unique: use the pod"
              + " name)",
          namespace,
          leaseName,
          record.get().incarnation(),
          replicaId,
          record.get().leaseDuration());
    }
    return false;
  }

  /** After a conflict: if this incarnation was fenced or the Lease deleted, start a new one. */
  private void recover() {
    var fresh = writer.get(leaseName);
    var record = fresh == null ? Optional.<MemberRecord>empty() : codec.member(fresh);
    boolean stillOurs =
        record.isPresent()
            && !record.get().fenced()
            && record.get().incarnation().equals(ownership.incarnation());
    if (stillOurs) {
      current = fresh;
      lastAttemptFailed = false;
      lastRenewStart = Instant.MIN; // renew again at once with the fresh version
      return;
    }
    var reason =
        record
            .map(r -> r.fenced() ? "fenced by " + r.fencedBy() : "taken over by another run")
            .orElse("deleted");
    if (!loseEverything.test("member Lease " + reason)) {
      // a write may still be in flight: let others wait a whole lease duration before taking over
      registerNotBefore = clock.instant().plus(settings.leaseDuration());
    }
    LOG.warn(
        "member Lease {}/{} was {}; this replica lost its shards and registers again",
        namespace,
        leaseName,
        reason);
    current = null;
    lastRenewStart = Instant.MIN;
    lastAttemptFailed = false;
  }
}
