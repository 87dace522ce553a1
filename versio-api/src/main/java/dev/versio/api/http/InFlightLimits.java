package dev.versio.api.http;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a webhook listener holds at once, counted from a request's arrival to the end of its answer:
 * requests in all, requests of one client (remote address), and body bytes. A request beyond any of
 * them is refused at once instead of waiting, so neither an overload nor slow or hostile clients
 * can build an unbounded queue, and no single client can take every slot.
 */
public final class InFlightLimits {
  private final int total;
  private final int perClient;
  private final long bytes;
  private final AtomicInteger inFlight = new AtomicInteger();
  private final AtomicLong bytesInFlight = new AtomicLong();
  private final ConcurrentHashMap<String, Integer> byClient = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Long> bytesByClient = new ConcurrentHashMap<>();

  /**
   * @param total requests held at once
   * @param perClient requests one remote address may hold at once; it may hold the same share of
   *     the body bytes
   * @param bytes body bytes held at once by all requests together
   */
  public InFlightLimits(int total, int perClient, long bytes) {
    if (total < 1 || perClient < 1 || bytes < 1) {
      throw new IllegalArgumentException(
          "in-flight limits must be at least 1, got total "
              + total
              + ", per client "
              + perClient
              + ", bytes "
              + bytes);
    }
    this.total = total;
    this.perClient = Math.min(perClient, total);
    this.bytes = bytes;
  }

  /** Why a request was refused. */
  public enum Refusal {
    /** Every slot is held. */
    TOTAL,
    /** The client holds its share of the slots. */
    CLIENT,
    /** The bodies in flight hold the byte budget. */
    BYTES
  }

  /** The outcome of {@link #admit}: a slot to release, or why there was none. */
  public sealed interface Admission {
    /** Admitted: release the slot once the answer is written or the connection goes. */
    record Admitted(Slot slot) implements Admission {}

    /** Refused at once. */
    record Refused(Refusal reason) implements Admission {}
  }

  /** Takes a slot for a request of {@code client}, if every limit allows it. */
  public Admission admit(String client) {
    if (inFlight.incrementAndGet() > total) {
      inFlight.decrementAndGet();
      return new Admission.Refused(Refusal.TOTAL);
    }
    var held = byClient.merge(client, 1, Integer::sum);
    if (held > perClient) {
      leave(client);
      inFlight.decrementAndGet();
      return new Admission.Refused(Refusal.CLIENT);
    }
    return new Admission.Admitted(new Slot(client));
  }

  /** Requests held now. */
  public int inFlight() {
    return inFlight.get();
  }

  /** Body bytes held now. */
  public long bytesInFlight() {
    return bytesInFlight.get();
  }

  public int total() {
    return total;
  }

  public int perClient() {
    return perClient;
  }

  public long bytes() {
    return bytes;
  }

  /** Body bytes one client may hold: its share of the slots, of the bytes. */
  public long bytesPerClient() {
    return Math.max(1, (long) (bytes * ((double) perClient / total)));
  }

  /** Whether a body of {@code n} bytes fits what is free now (nothing is counted). */
  public boolean fits(long n) {
    return n <= bytes - bytesInFlight.get();
  }

  private void leave(String client) {
    byClient.computeIfPresent(client, (k, held) -> held == 1 ? null : held - 1);
  }

  /**
   * One admitted request. It is held by the request and by anyone who {@link #retain() retains} it
   * (a worker still converting its body); everything is given back once, when the last holder
   * releases it — more releases than holders do nothing.
   */
  public final class Slot {
    private final String client;
    private final AtomicLong charged = new AtomicLong();
    private final AtomicInteger holders = new AtomicInteger(1);

    private Slot(String client) {
      this.client = client;
    }

    /**
     * Counts {@code n} more body bytes for this request; false (and nothing counted) when they
     * would exceed the byte budget or this client's share of it: the request must then be refused.
     */
    public boolean charge(long n) {
      if (bytesInFlight.addAndGet(n) > bytes) {
        bytesInFlight.addAndGet(-n);
        return false;
      }
      if (bytesByClient.merge(client, n, Long::sum) > bytesPerClient()) {
        giveBack(n);
        return false;
      }
      charged.addAndGet(n);
      if (holders.get() == 0) { // released meanwhile: give the bytes straight back
        giveBack(charged.getAndSet(0));
      }
      return true;
    }

    /** One more holder, who must {@link #release()} too; false when it was released already. */
    public boolean retain() {
      return holders.getAndUpdate(h -> h == 0 ? 0 : h + 1) > 0;
    }

    /** Lets go of one hold; the last one gives the slot and its bytes back. */
    public void release() {
      if (holders.getAndUpdate(h -> h == 0 ? 0 : h - 1) == 1) {
        giveBack(charged.getAndSet(0));
        leave(client);
        inFlight.decrementAndGet();
      }
    }

    private void giveBack(long n) {
      bytesInFlight.addAndGet(-n);
      bytesByClient.computeIfPresent(client, (k, held) -> held - n == 0 ? null : held - n);
    }
  }
}
