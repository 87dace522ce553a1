package dev.versio.operator.tls;

import java.net.InetAddress;
import java.util.Optional;

/** Host names versus IP literals, as subject alternative names need them told apart. */
final class Hosts {
  private Hosts() {}

  /** The address when {@code host} is an IPv4 or IPv6 literal (IPv6 possibly in brackets). */
  static Optional<InetAddress> ipLiteral(String host) {
    var bare =
        host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    try {
      return Optional.of(InetAddress.ofLiteral(bare)); // never a DNS look-up
    } catch (IllegalArgumentException e) {
      return Optional.empty();
    }
  }
}
