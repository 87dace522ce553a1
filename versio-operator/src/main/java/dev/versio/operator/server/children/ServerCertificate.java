package dev.versio.operator.server.children;

import dev.versio.api.server.ConversionWebhookServerSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;

/**
 * What the serving certificate of a Service-mode server must cover and how long it lives, when the
 * operator issues it itself (no {@code spec.certificate.issuerRef}): the Service's four DNS names
 * plus {@code spec.certificate.dnsNames}, valid for {@code spec.certificate.duration} (90 days) and
 * renewed {@code spec.certificate.renewBefore} (15 days) before it ends. Pure.
 *
 * @param hosts the names the certificate must cover
 * @param validity how long new material is valid
 * @param renewBefore how long before its end material is replaced
 */
public record ServerCertificate(List<String> hosts, Duration validity, Duration renewBefore) {
  public static final Duration DEFAULT_VALIDITY = Duration.ofDays(90);
  public static final Duration DEFAULT_RENEW_BEFORE = Duration.ofDays(15);
  private static final Pattern DURATION = Pattern.compile("(\\d+)(d|h|m|s)");

  public ServerCertificate {
    hosts = List.copyOf(hosts);
    if (!renewBefore.isPositive() || renewBefore.compareTo(validity) >= 0) {
      throw new IllegalArgumentException(
          "spec.certificate.renewBefore ("
              + renewBefore
              + ") must be positive and shorter than spec.certificate.duration ("
              + validity
              + ")");
    }
  }

  /** Whether the operator issues the certificate (no cert-manager issuer is named). */
  public static boolean managedByOperator(ConversionWebhookServerSpec spec) {
    return spec.certificate == null || spec.certificate.issuerRef == null;
  }

  /** The certificate of server {@code name} whose children live in {@code namespace}. */
  public static ServerCertificate of(
      String name, String namespace, ConversionWebhookServerSpec spec) {
    return of(name, namespace, spec, false);
  }

  /**
   * As above; {@code behindFront}: the names of the namespace's front Service too, which the
   * apiserver calls for every shared server's targets.
   */
  public static ServerCertificate of(
      String name, String namespace, ConversionWebhookServerSpec spec, boolean behindFront) {
    var hosts = new LinkedHashSet<String>();
    serviceNames(WebhookServerChildren.childName(name), namespace, hosts);
    if (behindFront) {
      serviceNames(WebhookServerChildren.FRONT_SERVICE, namespace, hosts);
    }
    var certificate = spec.certificate;
    if (certificate != null && certificate.dnsNames != null) {
      hosts.addAll(certificate.dnsNames);
    }
    return new ServerCertificate(
        new ArrayList<>(hosts),
        certificate == null
            ? DEFAULT_VALIDITY
            : duration("spec.certificate.duration", certificate.duration, DEFAULT_VALIDITY),
        certificate == null
            ? DEFAULT_RENEW_BEFORE
            : duration(
                "spec.certificate.renewBefore", certificate.renewBefore, DEFAULT_RENEW_BEFORE));
  }

  private static void serviceNames(String service, String namespace, LinkedHashSet<String> hosts) {
    hosts.add(service);
    hosts.add(service + "." + namespace);
    hosts.add(service + "." + namespace + ".svc");
    hosts.add(service + "." + namespace + ".svc.cluster.local");
  }

  /** {@code 2160h}, {@code 90d}, {@code 30m} or {@code 45s}; null means {@code fallback}. */
  static Duration duration(String field, String text, Duration fallback) {
    if (text == null || text.isBlank()) {
      return fallback;
    }
    var m = DURATION.matcher(text.trim());
    if (!m.matches()) {
      throw new IllegalArgumentException(
          field + " '" + text + "' is not a duration: use e.g. 2160h or 90d");
    }
    long n = Long.parseLong(m.group(1));
    return switch (m.group(2)) {
      case "d" -> Duration.ofDays(n);
      case "h" -> Duration.ofHours(n);
      case "m" -> Duration.ofMinutes(n);
      default -> Duration.ofSeconds(n);
    };
  }
}
