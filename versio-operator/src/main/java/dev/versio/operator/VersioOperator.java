package dev.versio.operator;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.time.Clock;
import java.util.OptionalInt;

/**
 * One operator process: informer caches, the config and server reconcilers on the Java Operator
 * SDK, the admission webhook and the ops listener ({@code /metrics}, {@code /healthz}, {@code
 * /readyz}).
 */
public final class VersioOperator implements AutoCloseable {
  private VersioOperator() {}

  /** Starts the operator; returns once caches are synced and (if configured) admission serves. */
  public static VersioOperator start(
      KubernetesClient client, OperatorOptions options, Clock clock) {
    throw new UnsupportedOperationException("not wired yet");
  }

  /** Ready: caches synced and admission serving. */
  public boolean ready() {
    return false;
  }

  /** The port of the plain-HTTP ops listener. */
  public int opsPort() {
    return 0;
  }

  /** The port of the admission webhook's HTTPS listener, when it is served. */
  public OptionalInt admissionPort() {
    return OptionalInt.empty();
  }

  @Override
  public void close() {}
}
