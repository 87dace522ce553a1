package dev.versio.operator.server;

import java.io.ByteArrayInputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.Base64;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;

/**
 * Judges a URL-mode server from the URL itself: an HTTPS request verified with {@code
 * spec.caBundle}. Any HTTP answer proves the conversion listener is open (it opens only once the
 * replica's registry is complete) and that its certificate chains to the bundle. URL mode is for
 * local development and tests; in a cluster the operator never calls pods.
 */
public final class UrlProbe {
  private final Duration timeout;

  public UrlProbe(Duration timeout) {
    this.timeout = timeout;
  }

  /** What the probe found. */
  public record Result(boolean certificateOk, boolean reachable, String message) {}

  public Result probe(String url, String caBundleBase64) {
    SSLContext ssl;
    try {
      ssl = trusting(caBundleBase64);
    } catch (Exception e) {
      return new Result(
          false, false, "spec.caBundle is not a base64 PEM certificate: " + e.getMessage());
    }
    try (var client = HttpClient.newBuilder().sslContext(ssl).connectTimeout(timeout).build()) {
      var request =
          HttpRequest.newBuilder(URI.create(url + "/convert/")).timeout(timeout).GET().build();
      var response = client.send(request, HttpResponse.BodyHandlers.discarding());
      return new Result(
          true,
          true,
          "the conversion listener at " + url + " answers (HTTP " + response.statusCode() + ")");
    } catch (SSLHandshakeException e) {
      return new Result(
          false,
          true,
          "the server at "
              + url
              + " does not present a certificate signed by spec.caBundle: "
              + e.getMessage());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Result(true, false, "interrupted while probing " + url);
    } catch (Exception e) {
      return new Result(
          true, false, "the conversion listener at " + url + " does not answer: " + e);
    }
  }

  private static SSLContext trusting(String caBundleBase64) throws Exception {
    var pem = Base64.getDecoder().decode(caBundleBase64.trim());
    var certificates =
        CertificateFactory.getInstance("X.509").generateCertificates(new ByteArrayInputStream(pem));
    if (certificates.isEmpty()) {
      throw new IllegalArgumentException("no certificate in it");
    }
    var store = KeyStore.getInstance(KeyStore.getDefaultType());
    store.load(null, null);
    int i = 0;
    for (var certificate : certificates) {
      store.setCertificateEntry("ca-" + i++, (X509Certificate) certificate);
    }
    var trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    trust.init(store);
    var context = SSLContext.getInstance("TLS");
    context.init(null, trust.getTrustManagers(), null);
    return context;
  }
}
