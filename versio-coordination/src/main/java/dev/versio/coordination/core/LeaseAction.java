package dev.versio.coordination.core;

/** One Lease write the planner asks for; each is a compare-and-swap on the Lease's version. */
public sealed interface LeaseAction {
  /** Give a shard up: the holder is cleared; the replica has stopped writing for it already. */
  record Release(ShardLease lease) implements LeaseAction {}

  /** Declare a member incarnation expired, so that its shards may be taken. */
  record Fence(MemberRecord member) implements LeaseAction {}

  /** Take a shard: holder becomes this replica, epoch becomes {@code lease.epoch() + 1}. */
  record Acquire(ShardLease lease) implements LeaseAction {}

  /** Delete the Lease of a member this replica fenced long ago and that no shard names any more. */
  record Forget(MemberRecord member) implements LeaseAction {}
}
