package dev.versio.bench.handover;

import dev.versio.api.config.CRDConversionConfig;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Every move the operator made, as the configs' status shows it: a change of the server that serves
 * the target ({@code status.servedBy}, or the server behind {@code status.webhookURL} for a status
 * without it), with the {@code HandoverReady} condition written in the same status (the operator
 * sets both in one write when the move completes — behind the shared front without touching the
 * target).
 */
final class MoveLedger implements AutoCloseable {
  /** One observed move. */
  record Move(
      Instant at,
      String config,
      String from,
      String to,
      String handoverStatus,
      String handoverReason,
      String phase) {
    boolean verified() {
      return "True".equals(handoverStatus) && "HandoverReady".equals(handoverReason);
    }

    @Override
    public String toString() {
      return config
          + " "
          + from
          + " -> "
          + to
          + " (HandoverReady="
          + handoverStatus
          + "/"
          + handoverReason
          + ", phase "
          + phase
          + ")";
    }
  }

  private final SharedIndexInformer<CRDConversionConfig> informer;
  private final Function<String, String> serverOfUrl;
  private final Map<String, String> lastServer = new ConcurrentHashMap<>();
  private final List<Move> moves = new ArrayList<>();

  /** Watches every CRDConversionConfig; {@code serverOfUrl} names the server behind a URL. */
  MoveLedger(KubernetesClient client, Function<String, String> serverOfUrl) {
    this.serverOfUrl = serverOfUrl;
    this.informer =
        client
            .resources(CRDConversionConfig.class)
            .inform(
                new ResourceEventHandler<>() {
                  @Override
                  public void onAdd(CRDConversionConfig config) {
                    observe(config);
                  }

                  @Override
                  public void onUpdate(CRDConversionConfig before, CRDConversionConfig after) {
                    observe(after);
                  }

                  @Override
                  public void onDelete(CRDConversionConfig config, boolean unknownFinalState) {
                    lastServer.remove(config.getMetadata().getName());
                  }
                });
  }

  private void observe(CRDConversionConfig config) {
    var status = config.getStatus();
    if (status == null || status.webhookURL == null) {
      return;
    }
    var name = config.getMetadata().getName();
    var server = status.servedBy != null ? status.servedBy : serverOfUrl.apply(status.webhookURL);
    var previous = lastServer.put(name, server);
    if (previous == null || Objects.equals(previous, server)) {
      return;
    }
    var handover =
        status.conditions.stream().filter(c -> "HandoverReady".equals(c.getType())).findFirst();
    var move =
        new Move(
            Instant.now(),
            name,
            previous,
            server,
            handover.map(c -> c.getStatus()).orElse("(absent)"),
            handover.map(c -> c.getReason()).orElse("(absent)"),
            status.phase);
    synchronized (moves) {
      moves.add(move);
    }
  }

  /** The moves seen so far, in order. */
  List<Move> moves() {
    synchronized (moves) {
      return List.copyOf(moves);
    }
  }

  /** The moves seen since the {@code from}-th. */
  List<Move> movesSince(int from) {
    synchronized (moves) {
      return new ArrayList<>(moves.subList(Math.min(from, moves.size()), moves.size()));
    }
  }

  @Override
  public void close() {
    informer.close();
  }
}
