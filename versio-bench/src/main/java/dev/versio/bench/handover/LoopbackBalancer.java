package dev.versio.bench.handover;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A TCP balancer on loopback in front of the replicas of one server, doing what a Kubernetes
 * Service does with kube-proxy: each new connection goes to the next backend in turn, and its bytes
 * (TLS included) are copied unchanged both ways. Like a Service, it never retries a request; a
 * backend that refuses the connection closes the client's connection.
 */
public final class LoopbackBalancer implements AutoCloseable {
  private final ServerSocket listener;
  private final List<Integer> backends;
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicLongArray connections;
  private final Thread acceptor;
  private final java.util.Set<Integer> excluded =
      java.util.concurrent.ConcurrentHashMap.newKeySet();

  private LoopbackBalancer(ServerSocket listener, List<Integer> backends) {
    this.listener = listener;
    this.backends = List.copyOf(backends);
    this.connections = new AtomicLongArray(backends.size());
    this.acceptor = Thread.ofPlatform().daemon().name("balancer-" + port()).start(this::accept);
  }

  /** Listens on a free loopback port in front of {@code backendPorts}. */
  public static LoopbackBalancer start(List<Integer> backendPorts) throws IOException {
    if (backendPorts.isEmpty()) {
      throw new IllegalArgumentException("a balancer needs at least one backend");
    }
    var listener = new ServerSocket();
    listener.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);
    return new LoopbackBalancer(listener, backendPorts);
  }

  public int port() {
    return listener.getLocalPort();
  }

  /** Connections handed to each backend so far, in the order of the backends. */
  List<Long> connectionsPerBackend() {
    var out = new java.util.ArrayList<Long>();
    for (int i = 0; i < connections.length(); i++) {
      out.add(connections.get(i));
    }
    return out;
  }

  /**
   * Takes a backend out of rotation for new connections (or puts it back), as a Service drops a pod
   * whose readiness probe fails; connections already open to it stay, as they do with kube-proxy.
   */
  public void outOfRotation(int backendPort, boolean out) {
    if (out) {
      excluded.add(backendPort);
    } else {
      excluded.remove(backendPort);
    }
  }

  private int pick() {
    for (int tries = 0; tries < backends.size(); tries++) {
      int i = Math.floorMod(next.getAndIncrement(), backends.size());
      if (!excluded.contains(backends.get(i))) {
        return i;
      }
    }
    return Math.floorMod(next.getAndIncrement(), backends.size()); // none ready: as a Service would
  }

  private void accept() {
    while (!listener.isClosed()) {
      try {
        var client = listener.accept();
        int i = pick();
        connections.incrementAndGet(i);
        Thread.ofVirtual().start(() -> relay(client, backends.get(i)));
      } catch (IOException e) {
        // closed, or one failed accept: keep listening while open
      }
    }
  }

  private static void relay(Socket client, int backendPort) {
    try (client;
        var backend = new Socket(InetAddress.getLoopbackAddress(), backendPort)) {
      client.setTcpNoDelay(true);
      backend.setTcpNoDelay(true);
      var up = Thread.ofVirtual().start(() -> copy(client, backend));
      copy(backend, client);
      up.join();
    } catch (IOException e) {
      // backend refused or the connection broke: the client sees its connection close
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Copies until end of stream, then half-closes the other side so it sees the end too. */
  private static void copy(Socket from, Socket to) {
    try {
      InputStream in = from.getInputStream();
      OutputStream out = to.getOutputStream();
      in.transferTo(out);
      to.shutdownOutput();
    } catch (IOException e) {
      try {
        from.close();
        to.close();
      } catch (IOException ignored) {
        // already closed
      }
    }
  }

  @Override
  public void close() throws IOException {
    listener.close();
    acceptor.interrupt();
  }
}
