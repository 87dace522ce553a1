package dev.versio.operator.chaos;

import dev.versio.testkit.fleet.Widgets;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Admission calls through the apiserver while replicas come and go: dry-run creates of configs, in
 * turn one the webhook must allow and one it must deny (a second config for a target that has one).
 * Each call is counted as answered (allowed or denied, as expected) or failed (the webhook could
 * not be reached, timed out, or answered wrongly), with samples of the failures.
 */
public final class AdmissionProbe implements AutoCloseable {
  private final KubernetesClient client;
  private final String takenTarget;
  private final String server;
  private final AtomicLong allowed = new AtomicLong();
  private final AtomicLong denied = new AtomicLong();
  private final AtomicLong failed = new AtomicLong();
  private final List<String> samples = new ArrayList<>();
  private final Thread thread;
  private volatile boolean running = true;

  /**
   * @param takenTarget a CRD that already has a config, so a second one must be denied
   * @param server the webhook server the probe configs name
   */
  public AdmissionProbe(KubernetesClient client, String takenTarget, String server) {
    this.client = client;
    this.takenTarget = takenTarget;
    this.server = server;
    this.thread = Thread.ofPlatform().name("admission-probe").daemon().unstarted(this::run);
  }

  public AdmissionProbe start() {
    thread.start();
    return this;
  }

  private void run() {
    long n = 0;
    while (running) {
      boolean clash = n++ % 2 == 1;
      var target = clash ? takenTarget : "widgets.admission-probe.example.org";
      var config = Widgets.renameConfig("admission-probe-" + n, target, server);
      try {
        client.resource(config).dryRun().create();
        if (clash) {
          fail("a second config for " + takenTarget + " was allowed");
        } else {
          allowed.incrementAndGet();
        }
      } catch (KubernetesClientException e) {
        if (clash && e.getCode() == 403 && String.valueOf(e.getMessage()).contains("denied")) {
          denied.incrementAndGet();
        } else {
          fail(e.getCode() + " " + e.getMessage());
        }
      }
      try {
        Thread.sleep(200); // the probe's pace: a few calls per second, so it measures, not loads
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void fail(String what) {
    failed.incrementAndGet();
    if (samples.size() < 5) {
      samples.add(what);
    }
  }

  public long allowed() {
    return allowed.get();
  }

  public long denied() {
    return denied.get();
  }

  public long failed() {
    return failed.get();
  }

  public synchronized List<String> samples() {
    return List.copyOf(samples);
  }

  /** Stops after the call in flight. */
  @Override
  public void close() throws InterruptedException {
    running = false;
    thread.join();
  }
}
