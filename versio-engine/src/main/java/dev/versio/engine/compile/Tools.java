package dev.versio.engine.compile;

import dev.versio.engine.runtime.CanonicalJson;

/**
 * Shared, immutable helpers ops are built with: the canonical JSON writer for annotations and the
 * CEL environment. One set per {@link Compiler}.
 */
record Tools(CanonicalJson json, CelScripts cel) {}
