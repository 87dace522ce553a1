/** Lease-based membership, shard ownership and leader-aware gating for active-active replicas. */
package dev.versio.coordination;
