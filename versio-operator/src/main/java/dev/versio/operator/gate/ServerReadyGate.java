package dev.versio.operator.gate;

import dev.versio.api.server.ConversionWebhookServer;
import dev.versio.operator.status.Conditions;
import dev.versio.operator.status.Observation.Check;
import java.util.ArrayList;

/**
 * Whether a server may receive a target: Available, CertificateReady and ServiceReady all True, and
 * (in Service mode) at least one ready replica, as the server's status says. Pure.
 */
public final class ServerReadyGate {
  private ServerReadyGate() {}

  public static Check check(ConversionWebhookServer server) {
    var name = server.getMetadata().getName();
    var status = server.getStatus();
    if (status == null) {
      return notReady(name, "it has no status yet (the operator has not observed it)");
    }
    var missing = new ArrayList<String>();
    for (var type : new String[] {"Available", "CertificateReady", "ServiceReady"}) {
      if (!Conditions.isTrue(status.conditions, type)) {
        var detail =
            Conditions.find(status.conditions, type)
                .map(c -> type + " is False (" + c.getReason() + ": " + c.getMessage() + ")")
                .orElse(type + " is not reported yet");
        missing.add(detail);
      }
    }
    boolean urlMode = server.getSpec() != null && server.getSpec().url != null;
    if (!urlMode && (status.readyReplicas == null || status.readyReplicas < 1)) {
      missing.add("no ready replica");
    }
    if (!missing.isEmpty()) {
      return notReady(name, String.join("; ", missing));
    }
    return new Check(true, "ServerReady", "ConversionWebhookServer " + name + " is ready");
  }

  private static Check notReady(String name, String why) {
    return new Check(
        false,
        "ServerNotReady",
        "ConversionWebhookServer "
            + name
            + " is not ready: "
            + why
            + "; see kubectl describe conversionwebhookserver "
            + name);
  }
}
