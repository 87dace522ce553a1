/**
 * The life of a CRD version — add, promote storage, re-store, prune {@code status.storedVersions},
 * stop serving, remove — read from the live CRD and the serving replicas' reports of reviews per
 * version: the next safe step ({@code versio status}) and which versions can be retired now (a
 * config's {@code RetirementReady} condition). Pure (docs/operator.md, "Version lifecycle").
 */
package dev.versio.operator.lifecycle;
