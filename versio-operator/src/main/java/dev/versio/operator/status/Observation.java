package dev.versio.operator.status;

import dev.versio.operator.gate.HandoverVerdict;
import java.util.Objects;

/**
 * What one reconcile of a config found, gate by gate: the input of {@link ConfigStatusPolicy}.
 *
 * @param generation the config's {@code metadata.generation}
 * @param targetGeneration the target's generation, or null when the target was not found
 * @param analysis the analysis against the live schema, or null when it was not reached
 * @param assignedServer the resolved server, or null when not reached or unresolved
 * @param targetHealth the target-Established gate, or null when not reached
 * @param serverHealth the server-ready gate, or null when not reached
 * @param outcome where the gate chain ended
 * @param handover what the handover gate said, or null when it was not reached
 */
public record Observation(
    long generation,
    Long targetGeneration,
    Analysis analysis,
    String assignedServer,
    Check targetHealth,
    Check serverHealth,
    Outcome outcome,
    HandoverVerdict handover) {
  public Observation {
    Objects.requireNonNull(outcome, "outcome");
  }

  /** An observation that did not reach the handover gate. */
  public Observation(
      long generation,
      Long targetGeneration,
      Analysis analysis,
      String assignedServer,
      Check targetHealth,
      Check serverHealth,
      Outcome outcome) {
    this(
        generation,
        targetGeneration,
        analysis,
        assignedServer,
        targetHealth,
        serverHealth,
        outcome,
        null);
  }

  /** This observation with the handover gate's verdict. */
  public Observation withHandover(HandoverVerdict verdict) {
    return new Observation(
        generation,
        targetGeneration,
        analysis,
        assignedServer,
        targetHealth,
        serverHealth,
        outcome,
        verdict);
  }

  /** The verdict of one health gate. */
  public record Check(boolean ok, String reason, String message) {
    public Check {
      Objects.requireNonNull(reason, "reason");
      Objects.requireNonNull(message, "message");
    }
  }

  /** Why a config cannot be applied at all (never the rules' coverage: that is validation). */
  public enum InvalidCause {
    TARGET_NOT_FOUND("TargetNotFound"),
    INVALID_CONFIG("InvalidConfig"),
    ANALYZE_FAILED("AnalyzeFailed"),
    UNRESOLVED_SERVER("UnresolvedServer"),
    /** The target does not let this config take its conversion over (TargetConsent). */
    TARGET_NOT_CONSENTING("TargetNotConsenting");

    private final String reason;

    InvalidCause(String reason) {
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  /** Which gate holds an otherwise valid config. */
  public enum WaitCause {
    /** Crossplane's XRD API is not installed (or its cache is still filling). */
    XRD_API_MISSING("XRDApiMissing"),
    NOT_ESTABLISHED("NotEstablished"),
    SERVER_NOT_READY("ServerNotReady"),
    /** A move to another server waits until its replicas serve the target. */
    HANDOVER("HandoverPending");

    private final String reason;

    WaitCause(String reason) {
      this.reason = reason;
    }

    public String reason() {
      return reason;
    }
  }

  /** What a FailClosed revert did. */
  public enum Revert {
    NOT_ATTEMPTED,
    REVERTED,
    REVERT_FAILED,
    /**
     * Not reverted because the target serves several versions (strategy None would hand out
     * unconverted objects): it keeps its webhook, whose replicas answer every conversion of the
     * target with a Failure while the config does not compile.
     */
    FAILING_CLOSED
  }

  /** Where the gate chain ended. */
  public sealed interface Outcome {
    String message();

    /** The config cannot be applied (see {@link InvalidCause}). */
    record Invalid(InvalidCause cause, String message) implements Outcome {}

    /** The analysis against the live schema found errors. */
    record ValidationFailed(String message, Revert revert) implements Outcome {}

    /** Valid, held by a gate. */
    record Waiting(WaitCause cause, String message) implements Outcome {}

    /** {@code spec.conversion} points at {@code webhookURL}. */
    record Applied(String webhookURL, String webhookPath, String message) implements Outcome {}
  }
}
