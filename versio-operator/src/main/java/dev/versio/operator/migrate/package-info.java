/**
 * Storage migration: re-storing every object of a target at its storage version, page by page and
 * paced, then pruning {@code status.storedVersions} (docs/operator.md, "Storage migration"). The
 * CLI's {@code versio migrate-storage} and the operator share the page step.
 */
package dev.versio.operator.migrate;
