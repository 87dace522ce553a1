package dev.versio.operator.gate;

import dev.versio.api.config.ConversionConfigStatus;
import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.served.ServedTargetsWatch;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collection;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The handover gate on the served-target reports: {@link HandoverPolicy} over the destination's
 * {@link ServedTargetsWatch view}. Remembers when it first held each move (for the grace period)
 * and which configs wait on which server, so that a change of that server's view reconciles exactly
 * them.
 */
public final class ServedHandoverGate implements HandoverGate {
  private final ServedTargetsWatch served;
  private final Clock clock;
  private final Duration grace;
  private final FrontReadiness front;
  private final Map<String, Instant> heldSince = new ConcurrentHashMap<>();
  private final Map<String, Map<String, Set<String>>> waiting = new ConcurrentHashMap<>();

  public ServedHandoverGate(ServedTargetsWatch served, Clock clock, Duration grace) {
    this(served, clock, grace, null);
  }

  /** As above; a move onto the shared front also waits for {@code front} (null: no front). */
  public ServedHandoverGate(
      ServedTargetsWatch served, Clock clock, Duration grace, FrontReadiness front) {
    this.front = front;
    this.served = served;
    this.clock = clock;
    this.grace = grace;
  }

  @Override
  public HandoverVerdict judge(
      String kind,
      String config,
      String target,
      ConversionConfigStatus previous,
      ConversionWebhookServer destination,
      String destinationUrl) {
    var lastAppliedUrl = previous == null ? null : previous.webhookURL;
    var server = destination.getMetadata().getName();
    var key = kind + "/" + config + "->" + server;
    var status = destination.getStatus();
    boolean urlMode = destination.getSpec() != null && destination.getSpec().url != null;
    var verdict =
        HandoverPolicy.judge(
            target,
            server,
            lastServer(previous, lastAppliedUrl),
            lastAppliedUrl,
            destinationUrl,
            served.view(server),
            urlMode || status == null ? null : status.readyReplicas,
            heldSince.get(key),
            grace,
            clock.instant());
    if (front != null && !(verdict instanceof HandoverVerdict.NotAMove) && verdict.proceeds()) {
      var problem = front.problem(destinationUrl);
      if (problem.isPresent()) {
        verdict =
            new HandoverVerdict.Waiting(
                "move of " + target + " to the shared front: " + problem.get());
      }
    }
    var waiters = waiting.computeIfAbsent(server, s -> new ConcurrentHashMap<>());
    if (verdict.proceeds()) {
      heldSince.remove(key);
      var held = waiters.get(kind);
      if (held != null) {
        held.remove(config);
      }
    } else {
      heldSince.putIfAbsent(key, clock.instant());
      waiters.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(config);
    }
    return verdict;
  }

  /**
   * The server that serves the target now: {@code status.servedBy}; when that is missing (written
   * by an operator that did not know it) at a front's URL, unknown — never equal to a destination,
   * so the move is judged rather than taken for none.
   */
  private String lastServer(ConversionConfigStatus previous, String lastAppliedUrl) {
    if (previous == null) {
      return null;
    }
    if (previous.servedBy == null && front != null && front.isFront(lastAppliedUrl)) {
      return "";
    }
    return previous.servedBy;
  }

  /** The configs of {@code kind} whose move onto {@code server} is held. */
  public Collection<String> waitingOn(String server, String kind) {
    return Set.copyOf(waiting.getOrDefault(server, Map.of()).getOrDefault(kind, Set.of()));
  }

  /** The grace period after which a move with no report at all goes ahead. */
  public Duration grace() {
    return grace;
  }

  /** Reconciles the configs of {@code kind} held on a server whose view changed. */
  public Consumer<Collection<String>> onViewChanged(
      String kind, Consumer<Collection<String>> triggerConfigs) {
    return servers -> {
      for (var server : servers) {
        var held = waitingOn(server, kind);
        if (!held.isEmpty()) {
          triggerConfigs.accept(held);
        }
      }
    };
  }
}
