package dev.versio.cli.live;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import javax.net.ssl.SSLException;

/**
 * A failed call to the cluster said as a person would: who could not be reached or what the
 * apiserver refused, and what to check — not the client library's operation text.
 */
public final class ClusterErrors {
  private ClusterErrors() {}

  /** {@code cannot reach the cluster at https://...: connection refused}, and the like. */
  public static String describe(String server, KubernetesClientException e) {
    for (Throwable cause = e; cause != null; cause = cause.getCause()) {
      if (cause instanceof ConnectException) {
        return "cannot reach the cluster at "
            + server
            + ": connection refused (is it running? is this the right context?)";
      }
      if (cause instanceof UnknownHostException) {
        return "cannot reach the cluster at "
            + server
            + ": unknown host "
            + cause.getMessage()
            + " (check the kubeconfig's server address)";
      }
      if (cause instanceof SSLException) {
        return "cannot talk TLS to the cluster at "
            + server
            + ": "
            + cause.getMessage()
            + " (check the kubeconfig's certificate-authority data)";
      }
      if (cause instanceof HttpTimeoutException || cause instanceof TimeoutException) {
        return "the cluster at " + server + " did not answer in time";
      }
    }
    var status = e.getStatus() == null ? null : e.getStatus().getMessage();
    var detail = status != null && !status.isBlank() ? status : firstLine(e.getMessage());
    return switch (e.getCode()) {
      case 401 ->
          "the cluster at "
              + server
              + " did not accept the credentials (401); refresh them, e.g. log in again";
      case 403 -> "the cluster at " + server + " refused: " + detail + " (403, check your RBAC)";
      case 404 -> "not found in the cluster at " + server + ": " + detail;
      case 0 -> "cannot talk to the cluster at " + server + ": " + detail;
      default -> "the cluster at " + server + " answered " + e.getCode() + ": " + detail;
    };
  }

  private static String firstLine(String message) {
    return message == null ? "no detail" : message.lines().findFirst().orElse("no detail");
  }
}
