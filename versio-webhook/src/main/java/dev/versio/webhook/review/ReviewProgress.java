package dev.versio.webhook.review;

/**
 * How far one review has got, shared between the thread that converts it and the transport, which
 * may answer it once its budget runs out and then asks the conversion to stop (it checks between
 * objects). One instance per review.
 */
public final class ReviewProgress {
  private volatile String apiVersion = "apiextensions.k8s.io/v1";
  private volatile String uid = "";
  private volatile int objects;
  private volatile int converted;
  private volatile boolean stopRequested;

  /** A review that nobody will stop. */
  public static ReviewProgress unbounded() {
    return new ReviewProgress();
  }

  void started(String apiVersion, String uid, int objects) {
    this.apiVersion = apiVersion;
    this.uid = uid;
    this.objects = objects;
  }

  void converted(int count) {
    this.converted = count;
  }

  /** Asks the conversion to stop before its next object; its result will not be sent. */
  public void stop() {
    stopRequested = true;
  }

  boolean stopRequested() {
    return stopRequested;
  }

  String apiVersion() {
    return apiVersion;
  }

  /** The request's UID once the body was read, else empty. */
  public String uid() {
    return uid;
  }

  int objects() {
    return objects;
  }

  int converted() {
    return converted;
  }
}
