package dev.versio.bench.handover;

import dev.versio.testkit.metrics.Exposition;
import dev.versio.testkit.tls.CertificateAuthority;
import dev.versio.testkit.tls.MountedSecret;
import java.math.BigInteger;
import java.net.InetSocketAddress;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import javax.net.ssl.SSLSocket;

/**
 * Renews the replicas' serving certificate while the moves run: a new leaf from the same CA every
 * {@code every}, up to {@code limit} times (23: five years of the managed certificates' renewal
 * every 80 days), written into the replicas' certificate folder the way the kubelet delivers the
 * Secret the operator renews. The CA stays, so no CA bundle and no target CRD changes; what this
 * shows is that the replicas swap their certificate under traffic without failing a review.
 */
final class LeafRenewals implements AutoCloseable {
  /**
   * What the renewals did: how many were written; how many times the replicas swapped their
   * certificate and how many re-reads they rejected (a rejected one keeps the last good certificate
   * serving); the replicas not serving the last one at the end.
   */
  public record Result(
      int written, long reloads, long rejectedReloads, List<String> notServingTheLast) {}

  private final CertificateAuthority ca;
  private final MountedSecret secret;
  private final Duration every;
  private final int limit;
  private final Thread thread;
  private final CountDownLatch stop = new CountDownLatch(1);
  private volatile int written;
  private volatile BigInteger lastSerial;
  private volatile Exception failure;

  private LeafRenewals(CertificateAuthority ca, MountedSecret secret, Duration every, int limit) {
    this.ca = ca;
    this.secret = secret;
    this.every = every;
    this.limit = limit;
    this.thread = Thread.ofPlatform().daemon().name("leaf-renewals").unstarted(this::renew);
  }

  /** Starts renewing; {@code every} zero renews nothing. */
  static LeafRenewals start(
      CertificateAuthority ca, MountedSecret secret, Duration every, int limit) {
    var renewals = new LeafRenewals(ca, secret, every, limit);
    if (!every.isZero()) {
      renewals.thread.start();
    }
    return renewals;
  }

  /** The files of a fresh leaf for the replicas on 127.0.0.1, with the CA they trust peers by. */
  static Map<String, String> leafFiles(CertificateAuthority ca) {
    var leaf = ca.issueServer("127.0.0.1", "localhost");
    return Map.of(
        "tls.crt", leaf.certificatePem(),
        "tls.key", leaf.privateKeyPem(),
        "ca.crt", ca.material().certificatePem());
  }

  private void renew() {
    try {
      // the lab's schedule of renewals; no interrupt, which would break a file write midway
      while (written < limit && !stop.await(every.toMillis(), TimeUnit.MILLISECONDS)) {
        renewOnce();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException | Error e) {
      failure = new IllegalStateException(e);
    }
  }

  /**
   * Waits, at most {@code within}, until every renewal was written: the run keeps its traffic and
   * its watch audit going until then, so that every renewal happens under both.
   */
  void awaitAll(Duration within) throws InterruptedException {
    if (thread.isAlive()) {
      thread.join(within);
    }
  }

  /** Writes a new leaf now. */
  synchronized void renewOnce() {
    var files = leafFiles(ca);
    secret.update(files);
    lastSerial = CertificateAuthority.parseCertificate(files.get("tls.crt")).getSerialNumber();
    written++;
  }

  /**
   * Stops renewing, then waits up to {@code within} until every port serves the last leaf (each
   * replica re-reads its files every {@code --cert-reload-interval}).
   */
  Result finish(
      Map<String, Integer> conversionPorts, Duration within, Supplier<List<String>> metrics)
      throws InterruptedException {
    close();
    if (failure != null) {
      throw new IllegalStateException("renewing the serving certificate failed", failure);
    }
    var stale = new ArrayList<String>();
    if (written == 0) {
      return new Result(0, 0, 0, stale);
    }
    long deadline = System.nanoTime() + within.toNanos();
    var pending = new ArrayList<>(conversionPorts.keySet());
    while (true) {
      pending.removeIf(replica -> lastSerial.equals(servedSerial(conversionPorts.get(replica))));
      if (pending.isEmpty() || System.nanoTime() > deadline) {
        break;
      }
      Thread.sleep(200); // polling replicas that re-read their files on their own schedule
    }
    stale.addAll(pending);
    long reloads = 0;
    long rejected = 0;
    for (var body : metrics.get()) {
      reloads +=
          (long) Exposition.sum(body, "versio_webhook_tls_reloads_total", "result=\"success\"");
      rejected +=
          (long) Exposition.sum(body, "versio_webhook_tls_reloads_total", "result=\"error\"");
    }
    return new Result(written, reloads, rejected, stale);
  }

  /** The serial of the certificate the replica at {@code port} presents now; null if none. */
  private BigInteger servedSerial(int port) {
    try (var socket = (SSLSocket) ca.trustingContext().getSocketFactory().createSocket()) {
      socket.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
      socket.setSoTimeout(2_000);
      socket.startHandshake();
      return ((X509Certificate) socket.getSession().getPeerCertificates()[0]).getSerialNumber();
    } catch (java.io.IOException e) {
      return null;
    }
  }

  @Override
  public void close() throws InterruptedException {
    stop.countDown();
    if (thread.isAlive()) {
      thread.join();
    }
  }
}
