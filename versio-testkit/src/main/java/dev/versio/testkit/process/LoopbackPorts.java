package dev.versio.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for processes and listeners that need to be told their port. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /** A loopback port that was free a moment ago (the caller binds it soon after). */
  public static int free() {
    try (var socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      socket.setReuseAddress(true);
      return socket.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException("no free loopback port", e);
    }
  }
}
