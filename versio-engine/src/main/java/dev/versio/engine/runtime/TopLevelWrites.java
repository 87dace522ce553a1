package dev.versio.engine.runtime;

import dev.versio.engine.FieldPath;
import java.util.Collection;
import java.util.List;

/**
 * Whether ops write a top-level field of the converted object, decided once per plan. A conversion
 * whose ops never write below {@code metadata} shares the input's {@code metadata} node with its
 * output instead of copying it (the copy is most of what converting a small object costs), and one
 * whose ops never write {@code apiVersion} sets it once instead of again after the ops.
 */
public final class TopLevelWrites {
  private static final String METADATA = "metadata";
  private static final String API_VERSION = "apiVersion";

  private TopLevelWrites() {}

  /** Whether {@code forEach}'s elements keep values in (or read them from) annotations. */
  public static boolean keepsElements(Op.ForEach forEach) {
    return forEach.keepsValues() || !forEach.restored().isEmpty();
  }

  /** Whether any of {@code ops} may write below the top-level {@code metadata}. */
  public static boolean metadata(List<Op> ops) {
    return any(ops, METADATA);
  }

  /** Whether any of {@code ops} may write the top-level {@code apiVersion}. */
  public static boolean apiVersion(List<Op> ops) {
    return any(ops, API_VERSION);
  }

  private static boolean any(List<Op> ops, String key) {
    for (var op : ops) {
      if (writes(op, key)) {
        return true;
      }
    }
    return false;
  }

  /** Whether {@code op} may write the top-level field {@code key} or below it. */
  static boolean writes(Op op, String key) {
    boolean metadata = key.equals(METADATA);
    return switch (op) {
      case Op.Stash s -> metadata;
      case Op.Restore r -> metadata;
      case Op.StripMetadataKey s -> metadata;
      case Op.Copy c -> under(c.to(), key);
      case Op.CopyExcept c -> under(c.to(), key);
      case Op.CopyFirst c -> under(c.to(), key);
      case Op.Wrap w -> under(w.to(), key);
      case Op.Unwrap u -> under(u.to(), key);
      case Op.FirstElement f -> under(f.to(), key);
      case Op.WrapInArray w -> under(w.to(), key);
      case Op.Reshaped r -> under(r.to(), key);
      case Op.CollapseToMap c -> under(c.to(), key);
      case Op.ExpandFromMap e -> anyUnder(e.targets().values(), key);
      case Op.RemapEnum r -> under(r.to(), key);
      case Op.Inject i -> under(i.path(), key);
      // its own steps write into fresh elements, and values its elements keep into annotations
      case Op.ForEach f ->
          under(f.to(), key) || (metadata && (f.keepsValues() || !f.restored().isEmpty()));
      case Op.ElementStash s -> false; // written by the top-level ForEach
      case Op.ElementRestore r -> false;
      case Op.When w -> writes(w.inner(), key);
      case Op.Passthrough p -> walks(p.known(), key);
      case ValueOp.Coerce c -> under(c.path(), key);
      case ValueOp.Scale s -> under(s.to(), key);
      case ValueOp.TextToInteger t -> under(t.to(), key);
      case ValueOp.IntegerToText t -> under(t.to(), key);
      case CollectionOp.JoinList j -> under(j.to(), key);
      case CollectionOp.SplitList s -> under(s.to(), key);
      case CollectionOp.ArrayToMap a -> under(a.to(), key);
      case CollectionOp.MapToArray m -> under(m.to(), key);
      case CollectionOp.RenameKeys r -> under(r.to(), key);
      case TextOp.SplitScalar s -> s.fields().stream().anyMatch(f -> under(f.path(), key));
      case TextOp.JoinFields j -> under(j.to(), key);
      case TextOp.ToJsonText t -> under(t.to(), key);
      case TextOp.FromJsonText f -> under(f.to(), key);
      case ScriptOp.Patch p -> anyUnder(p.paths(), key);
      case ScriptOp.Cel c -> anyUnder(c.destinations(), key);
    };
  }

  private static boolean anyUnder(Collection<FieldPath> paths, String key) {
    return paths.stream().anyMatch(path -> under(path, key));
  }

  /** Whether writing {@code path} writes {@code key} or below it; the root writes every key. */
  private static boolean under(FieldPath path, String key) {
    return path.segments().isEmpty() || path.segments().getFirst().equals(key);
  }

  private static boolean walks(KnownTree tree, String key) {
    var child = tree.child(key);
    return child != null && child.walkable();
  }
}
