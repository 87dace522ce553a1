package dev.versio.operator.admission;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.versio.engine.json.EngineJson;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Raw requests to the apiserver for admission ITs: what a client such as kubectl sees of a write,
 * including the status message of a denial and the {@code Warning} headers.
 */
final class Apiserver {
  private static final Pattern WARNING = Pattern.compile("^\\d{3} \\S+ \"(.*)\"$");
  private final KubernetesClient client;
  private final ObjectMapper json = EngineJson.newMapper();

  Apiserver(KubernetesClient client) {
    this.client = client;
  }

  /** What the apiserver answered. */
  record Reply(int code, JsonNode body, List<String> warnings) {
    boolean ok() {
      return code >= 200 && code < 300;
    }

    /** The Status message of a failed request. */
    String message() {
      return body.path("message").asText("");
    }

    @Override
    public String toString() {
      return code + " " + (ok() ? "" : message()) + " warnings=" + warnings;
    }
  }

  /** Server-side applies {@code object} (a Versio kind) and returns the answer. */
  Reply apply(JsonNode object) {
    return apply(object, false);
  }

  /** As {@link #apply(JsonNode)}; with {@code dryRun} nothing is stored (webhooks still run). */
  Reply apply(JsonNode object, boolean dryRun) {
    var name = object.path("metadata").path("name").asText();
    var path =
        collection(object.path("kind").asText())
            + "/"
            + name
            + "?fieldManager=versio-it&force=true"
            + (dryRun ? "&dryRun=All" : "");
    return send("PATCH", path, "application/apply-patch+yaml", object.toString());
  }

  /** Deletes the object {@code name} of Versio kind {@code kind}. */
  Reply delete(String kind, String name) {
    return send("DELETE", collection(kind) + "/" + name, "application/json", "{}");
  }

  private static String collection(String kind) {
    return "apis/versio.dev/v1alpha1/" + kind.toLowerCase(Locale.ROOT) + "s";
  }

  private Reply send(String method, String path, String contentType, String body) {
    var http = client.getHttpClient();
    var base = client.getMasterUrl().toString();
    var request =
        http.newHttpRequestBuilder()
            .uri(base + (base.endsWith("/") ? "" : "/") + path)
            .method(method, contentType, body)
            .build();
    try {
      var response = http.sendAsync(request, String.class).get(30, TimeUnit.SECONDS);
      var warnings = new ArrayList<String>();
      for (var header : response.headers("Warning")) {
        var m = WARNING.matcher(header);
        warnings.add(m.matches() ? m.group(1).replace("\\\"", "\"") : header);
      }
      var text = response.body();
      return new Reply(
          response.code(),
          text == null || text.isBlank() ? json.createObjectNode() : json.readTree(text),
          warnings);
    } catch (IOException e) {
      throw new IllegalStateException("unreadable answer to " + method + " " + path, e);
    } catch (Exception e) {
      throw new IllegalStateException(method + " " + path + " failed: " + e, e);
    }
  }
}
