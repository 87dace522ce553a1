package dev.versio.testkit.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Free TCP ports on loopback, for processes and listeners that need to be told their port. */
public final class LoopbackPorts {
  private LoopbackPorts() {}

  /**
   * {@code count} loopback ports that were free a moment ago, all different: they are held open
   * together while chosen, so two calls in a row can never hand out the same port before either is
   * bound (as two separate {@link #free()} calls can, when the first is bound seconds later).
   */
  public static int[] distinct(int count) {
    var sockets = new ServerSocket[count];
    try {
      var ports = new int[count];
      for (int i = 0; i < count; i++) {
        sockets[i] = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        ports[i] = sockets[i].getLocalPort();
      }
      return ports;
    } catch (IOException e) {
      throw new UncheckedIOException("no " + count + " free loopback ports", e);
    } finally {
      for (var socket : sockets) {
        if (socket != null) {
          try {
            socket.close();
          } catch (IOException ignored) {
            // the port is released either way
          }
        }
      }
    }
  }

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
