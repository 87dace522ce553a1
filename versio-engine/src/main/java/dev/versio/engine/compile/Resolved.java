package dev.versio.engine.compile;

import dev.versio.engine.runtime.Op;
import java.util.List;

/**
 * A rule resolved against its schemas.
 *
 * @param hubToSpoke the op for hub→spoke, or null when that direction does nothing
 * @param spokeToHub the op for spoke→hub, or null
 * @param verdict the rule's per-direction lossless verdict
 * @param hubPaths the hub paths it claims (for reports)
 * @param spokePaths the spoke paths it claims
 */
record Resolved(
    Op hubToSpoke,
    Op spokeToHub,
    Verdict verdict,
    List<String> hubPaths,
    List<String> spokePaths) {}
