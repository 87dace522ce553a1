/**
 * Operator replicas active-active on {@code versio-coordination}: every replica caches everything
 * and serves admission; each config and server is reconciled and written only by the replica that
 * owns its shard ({@link dev.versio.operator.ha.ShardWriteGate}, {@link
 * dev.versio.operator.ha.OwnedReconciler}); gained shards are resynced through a paced lane behind
 * live events ({@link dev.versio.operator.ha.TakeoverLane}).
 */
package dev.versio.operator.ha;
