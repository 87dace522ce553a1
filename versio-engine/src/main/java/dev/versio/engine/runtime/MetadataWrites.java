package dev.versio.engine.runtime;

import dev.versio.engine.FieldPath;
import java.util.Collection;
import java.util.List;

/**
 * Whether ops write below the object's {@code metadata}. A conversion whose ops never do shares the
 * input's {@code metadata} node with its output instead of copying it: the copy is most of what
 * converting a small object costs.
 */
public final class MetadataWrites {
  private static final String METADATA = "metadata";

  private MetadataWrites() {}

  /** Whether {@code forEach}'s elements keep values in (or read them from) annotations. */
  public static boolean keepsElements(Op.ForEach forEach) {
    return forEach.keepsValues() || !forEach.restored().isEmpty();
  }

  /** Whether any of {@code ops} may write below the top-level {@code metadata}. */
  public static boolean any(List<Op> ops) {
    for (var op : ops) {
      if (writes(op)) {
        return true;
      }
    }
    return false;
  }

  static boolean writes(Op op) {
    return switch (op) {
      case Op.Stash s -> true;
      case Op.Restore r -> true;
      case Op.StripMetadataKey s -> true;
      case Op.Copy c -> under(c.to());
      case Op.CopyExcept c -> under(c.to());
      case Op.CopyFirst c -> under(c.to());
      case Op.Wrap w -> under(w.to());
      case Op.Unwrap u -> under(u.to());
      case Op.FirstElement f -> under(f.to());
      case Op.WrapInArray w -> under(w.to());
      case Op.Reshaped r -> under(r.to());
      case Op.CollapseToMap c -> under(c.to());
      case Op.ExpandFromMap e -> anyUnder(e.targets().values());
      case Op.RemapEnum r -> under(r.to());
      case Op.Inject i -> under(i.path());
      // its own steps write into fresh elements, and values its elements keep into annotations
      case Op.ForEach f -> under(f.to()) || f.keepsValues() || !f.restored().isEmpty();
      case Op.ElementStash s -> false; // written by the top-level ForEach
      case Op.ElementRestore r -> false;
      case Op.When w -> writes(w.inner());
      case Op.Passthrough p -> walks(p.known());
      case ValueOp.Coerce c -> under(c.path());
      case ValueOp.Scale s -> under(s.to());
      case ValueOp.TextToInteger t -> under(t.to());
      case ValueOp.IntegerToText t -> under(t.to());
      case CollectionOp.JoinList j -> under(j.to());
      case CollectionOp.SplitList s -> under(s.to());
      case CollectionOp.ArrayToMap a -> under(a.to());
      case CollectionOp.MapToArray m -> under(m.to());
      case CollectionOp.RenameKeys r -> under(r.to());
      case TextOp.SplitScalar s -> s.fields().stream().anyMatch(f -> under(f.path()));
      case TextOp.JoinFields j -> under(j.to());
      case TextOp.ToJsonText t -> under(t.to());
      case TextOp.FromJsonText f -> under(f.to());
      case ScriptOp.Patch p -> anyUnder(p.paths());
      case ScriptOp.Cel c -> anyUnder(c.destinations());
    };
  }

  private static boolean anyUnder(Collection<FieldPath> paths) {
    return paths.stream().anyMatch(MetadataWrites::under);
  }

  private static boolean under(FieldPath path) {
    return !path.segments().isEmpty() && path.segments().getFirst().equals(METADATA);
  }

  private static boolean walks(KnownTree tree) {
    var child = tree.child(METADATA);
    return child != null && child.walkable();
  }
}
