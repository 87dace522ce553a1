package dev.versio.engine.compile;

/** Whether a conversion direction keeps every value (lossless) or may lose some (lossy). */
public record Verdict(boolean hubToSpoke, boolean spokeToHub) {
  public static final Verdict LOSSLESS = new Verdict(true, true);

  public Verdict and(Verdict other) {
    return new Verdict(hubToSpoke && other.hubToSpoke, spokeToHub && other.spokeToHub);
  }

  public boolean lossless() {
    return hubToSpoke && spokeToHub;
  }
}
