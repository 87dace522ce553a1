/**
 * Proposes a starting config from a target's schemas: identical fields need nothing, fields that
 * look moved or renamed get a candidate rule, everything else is listed for the author to decide.
 */
package dev.versio.engine.suggest;
