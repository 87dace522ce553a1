/**
 * The engine's own definition of every strategy: parameters with types and defaults, what each
 * direction does and when it is lossless, and a worked example. The rule parser is bound to it, and
 * the strategy reference ({@code docs/strategies/}) and the typed rule schema of the CRDs are
 * generated from it.
 */
package dev.versio.engine.rule.catalog;
