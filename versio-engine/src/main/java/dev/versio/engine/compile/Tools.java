package dev.versio.engine.compile;

import dev.versio.engine.runtime.CanonicalJson;

/**
 * Shared, immutable helpers ops are built with: the canonical JSON writer for annotations and the
 * CEL environment. One set per {@link Compiler}.
 *
 * @param acknowledgedCounterexamples whether to look for counterexamples of acknowledged losses too
 *     (analysis shows them; a compile for serving needs them only to explain a rejection)
 */
record Tools(CanonicalJson json, CelScripts cel, boolean acknowledgedCounterexamples) {
  Tools withAcknowledgedCounterexamples(boolean wanted) {
    return wanted == acknowledgedCounterexamples ? this : new Tools(json, cel, wanted);
  }
}
