package dev.versio.operator.gate;

/**
 * What the handover gate says about applying a config's target to its destination server. Only a
 * move is judged: a target that has never been applied, or is already applied to that server's
 * endpoint, is {@link NotAMove}.
 */
public sealed interface HandoverVerdict {
  /** Why, for the {@code HandoverReady} condition and the config's message. */
  String message();

  /** Whether the apply may go ahead. */
  default boolean proceeds() {
    return switch (this) {
      case NotAMove n -> true;
      case Ready r -> true;
      case Unverified u -> true;
      case Waiting w -> false;
      case Unreadable u -> false;
    };
  }

  /** A first apply, or no change of server endpoint. */
  record NotAMove() implements HandoverVerdict {
    @Override
    public String message() {
      return "not a move";
    }
  }

  /** Every live replica of the destination reports serving the target. */
  record Ready(String message) implements HandoverVerdict {}

  /** The destination reported nothing at all for the grace period; the move goes ahead. */
  record Unverified(String message) implements HandoverVerdict {}

  /** Replicas report, and not all of them serve the target yet. */
  record Waiting(String message) implements HandoverVerdict {}

  /** A live replica's report cannot be read: the move is blocked until it can. */
  record Unreadable(String message) implements HandoverVerdict {}
}
