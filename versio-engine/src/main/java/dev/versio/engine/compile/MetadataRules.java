package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.rule.Rule;
import dev.versio.engine.rule.Rule.Serialization;
import dev.versio.engine.runtime.Op;
import dev.versio.engine.runtime.Op.MetadataBucket;
import java.util.List;

/**
 * Strategies that keep a field of one side in an annotation or label of the other. Without {@code
 * restoreOnReverse} ({@code stashOnReverse}) the value survives neither round trip: the field does
 * not come back from the other side, and the annotation or label is dropped on the way back; so
 * both directions are lossy.
 */
final class MetadataRules {
  private MetadataRules() {}

  static Resolved toAnnotation(Scope s, int index, Rule.ToAnnotation r) {
    return hubFieldToMetadata(
        s,
        index,
        r,
        r.hubPath(),
        MetadataBucket.ANNOTATIONS,
        r.key(),
        r.serialization(),
        r.restoreOnReverse());
  }

  static Resolved toLabel(Scope s, int index, Rule.ToLabel r) {
    return hubFieldToMetadata(
        s,
        index,
        r,
        r.hubPath(),
        MetadataBucket.LABELS,
        r.key(),
        r.serialization(),
        r.restoreOnReverse());
  }

  static Resolved fromAnnotation(Scope s, int index, Rule.FromAnnotation r) {
    return spokeFieldFromMetadata(
        s,
        index,
        r,
        r.spokePath(),
        MetadataBucket.ANNOTATIONS,
        r.key(),
        r.serialization(),
        r.stashOnReverse());
  }

  static Resolved fromLabel(Scope s, int index, Rule.FromLabel r) {
    return spokeFieldFromMetadata(
        s,
        index,
        r,
        r.spokePath(),
        MetadataBucket.LABELS,
        r.key(),
        r.serialization(),
        r.stashOnReverse());
  }

  private static Resolved hubFieldToMetadata(
      Scope s,
      int index,
      Rule r,
      FieldPath hubPath,
      MetadataBucket bucket,
      String key,
      Serialization serialization,
      boolean restore) {
    if (s.hubNode(r, hubPath) == null || !s.claimHub(r, index, hubPath, true)) {
      return null;
    }
    var json = s.tools().json();
    Op reverse =
        restore
            ? new Op.Restore(bucket, key, hubPath, serialization, json)
            : new Op.StripMetadataKey(bucket, key);
    return new Resolved(
        new Op.Stash(hubPath, bucket, key, serialization, json),
        reverse,
        new Verdict(restore, restore),
        List.of(s.hubName(hubPath)),
        List.of());
  }

  private static Resolved spokeFieldFromMetadata(
      Scope s,
      int index,
      Rule r,
      FieldPath spokePath,
      MetadataBucket bucket,
      String key,
      Serialization serialization,
      boolean stash) {
    if (s.spokeNode(r, spokePath) == null || !s.claimSpoke(r, index, spokePath, true)) {
      return null;
    }
    var json = s.tools().json();
    Op reverse =
        stash
            ? new Op.Stash(spokePath, bucket, key, serialization, json)
            : new Op.StripMetadataKey(bucket, key);
    return new Resolved(
        new Op.Restore(bucket, key, spokePath, serialization, json),
        reverse,
        new Verdict(stash, stash),
        List.of(),
        List.of(s.spokeName(spokePath)));
  }
}
