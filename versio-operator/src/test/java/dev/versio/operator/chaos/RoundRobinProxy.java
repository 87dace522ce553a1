package dev.versio.operator.chaos;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a Service does for the operator's admission webhook in a cluster, on loopback: each new TCP
 * connection goes to the next endpoint in turn (TLS passes through to the replica, which serves the
 * certificate of the shared admission Secret). The harness removes a replica's endpoint when it
 * stops it or when it dies, as the endpoints controller does when a pod stops being ready; a
 * connection that cannot reach its endpoint is closed and counted, as a client would see it.
 */
public final class RoundRobinProxy implements AutoCloseable {
  private final ServerSocket server;
  private final List<Integer> endpoints = new CopyOnWriteArrayList<>();
  private final AtomicInteger next = new AtomicInteger();
  private final AtomicLong unreachable = new AtomicLong();
  private final Set<Socket> open = ConcurrentHashMap.newKeySet();
  private final Map<Integer, Integer> openPerEndpoint = new HashMap<>(); // guarded by itself
  private final Thread acceptor;

  private RoundRobinProxy(ServerSocket server) {
    this.server = server;
    this.acceptor = Thread.ofVirtual().name("round-robin-accept").unstarted(this::accept);
  }

  /** Listens on a free loopback port. */
  public static RoundRobinProxy start() throws IOException {
    var proxy = new RoundRobinProxy(new ServerSocket(0, 128, InetAddress.getLoopbackAddress()));
    proxy.acceptor.start();
    return proxy;
  }

  public int port() {
    return server.getLocalPort();
  }

  public void add(int endpoint) {
    endpoints.add(endpoint);
  }

  public void remove(int endpoint) {
    endpoints.remove(Integer.valueOf(endpoint));
  }

  /**
   * Waits until no connection to {@code endpoint} is open any more: after a replica dies, this
   * proxy must notice each of its connections end and close the client side too, a delay a real
   * Service does not add (there the replica's own sockets reach the client). A harness that sends
   * calls before then measures this proxy, not the webhook.
   *
   * @return whether they were all closed within {@code timeout}
   */
  public boolean awaitClosed(int endpoint, java.time.Duration timeout) throws InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    synchronized (openPerEndpoint) {
      while (openPerEndpoint.getOrDefault(endpoint, 0) > 0) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
          return false;
        }
        java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(openPerEndpoint, left);
      }
      return true;
    }
  }

  /** Connections that found no endpoint or could not reach the one chosen. */
  public long unreachable() {
    return unreachable.get();
  }

  private void accept() {
    while (!server.isClosed()) {
      try {
        var client = server.accept();
        Thread.ofVirtual().start(() -> connect(client));
      } catch (IOException e) {
        return; // closed
      }
    }
  }

  private void connect(Socket client) {
    var now = List.copyOf(endpoints);
    if (now.isEmpty()) {
      unreachable.incrementAndGet();
      closeQuietly(client);
      return;
    }
    int endpoint = now.get(Math.floorMod(next.getAndIncrement(), now.size()));
    Socket upstream;
    try {
      upstream = new Socket(InetAddress.getLoopbackAddress(), endpoint);
    } catch (IOException e) {
      unreachable.incrementAndGet();
      closeQuietly(client);
      return;
    }
    open.add(client);
    open.add(upstream);
    synchronized (openPerEndpoint) {
      openPerEndpoint.merge(endpoint, 1, Integer::sum);
    }
    try {
      Thread.ofVirtual().start(() -> pipe(client, upstream));
      pipe(upstream, client); // both sides are closed when it returns
    } finally {
      synchronized (openPerEndpoint) {
        openPerEndpoint.merge(endpoint, -1, Integer::sum);
        openPerEndpoint.notifyAll();
      }
    }
  }

  /** Copies one direction; when it ends, closes both sides (as a dead peer would). */
  private void pipe(Socket from, Socket to) {
    try (InputStream in = from.getInputStream()) {
      OutputStream out = to.getOutputStream();
      in.transferTo(out);
    } catch (IOException e) {
      // a side closed or reset: end the connection
    } finally {
      closeQuietly(from);
      closeQuietly(to);
    }
  }

  private void closeQuietly(Socket socket) {
    open.remove(socket);
    try {
      socket.close();
    } catch (IOException e) {
      // already closed
    }
  }

  @Override
  public void close() {
    try {
      server.close();
    } catch (IOException e) {
      // already closed
    }
    open.forEach(this::closeQuietly);
  }
}
