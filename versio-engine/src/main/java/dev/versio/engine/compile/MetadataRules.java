package dev.versio.engine.compile;

import dev.versio.engine.FieldPath;
import dev.versio.engine.diagnostic.DiagnosticCode;
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
    if (s.depth() > 0) {
      if (!inElement(s, r, bucket, serialization, s.hubName(hubPath))) {
        return null;
      }
      return new Resolved(
          new Op.ElementStash(hubPath, key),
          new Op.ElementRestore(key, restore ? hubPath : null, json),
          new Verdict(restore, restore),
          List.of(s.hubName(hubPath)),
          List.of());
    }
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

  /**
   * Inside a {@code ForEach} an element has no metadata of its own (the apiserver would prune it),
   * so the values are kept in one annotation of the object, a JSON map by element: labels cannot
   * hold that, and {@code serialization: String} does not apply.
   */
  private static boolean inElement(
      Scope s, Rule r, MetadataBucket bucket, Serialization serialization, String field) {
    if (bucket == MetadataBucket.LABELS) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              field,
              Scope.label(r)
                  + ": inside a ForEach a value of each element cannot be kept in a label (an"
                  + " element has no metadata, and a label holds one short value for the whole"
                  + " object)",
              "use "
                  + (r instanceof Rule.ToLabel ? "ToAnnotation" : "FromAnnotation")
                  + ": inside a ForEach it keeps every element's value in one annotation of the"
                  + " object");
      return false;
    }
    if (serialization == Serialization.STRING) {
      s.diagnostics()
          .error(
              DiagnosticCode.INVALID_PARAM,
              field,
              Scope.label(r)
                  + ": inside a ForEach the annotation holds a JSON map of every element's value,"
                  + " so serialization: String does not apply",
              "remove serialization (JSON is the default)");
      return false;
    }
    return true;
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
    if (s.depth() > 0) {
      if (!inElement(s, r, bucket, serialization, s.spokeName(spokePath))) {
        return null;
      }
      return new Resolved(
          new Op.ElementRestore(key, spokePath, json),
          stash ? new Op.ElementStash(spokePath, key) : new Op.ElementRestore(key, null, json),
          new Verdict(stash, stash),
          List.of(),
          List.of(s.spokeName(spokePath)));
    }
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
