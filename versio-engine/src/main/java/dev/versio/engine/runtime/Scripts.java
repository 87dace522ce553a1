package dev.versio.engine.runtime;

import java.util.List;

/**
 * Whether ops run a user's script (CEL or JSON Patch). Every other op costs time in proportion to
 * the object it converts; a script may cost far more per object (up to a CEL expression's
 * evaluation budget; a JSON Patch copy doubles what it copies), so a transport that runs small
 * reviews inline on an event loop sends reviews of scripted targets to a worker instead.
 */
public final class Scripts {
  private Scripts() {}

  /** Whether any of {@code ops}, or an op nested in them, runs a script. */
  public static boolean any(List<Op> ops) {
    for (var op : ops) {
      if (runs(op)) {
        return true;
      }
    }
    return false;
  }

  private static boolean runs(Op op) {
    // exhaustive, so that a new kind of op has to say whether it runs a script
    return switch (op) {
      case ScriptOp.Cel c -> true; // bounded only by its evaluation budget
      case Op.ForEach f -> any(f.steps().ops());
      case Op.When w -> runs(w.inner());
      case Op.Stash s -> false;
      case Op.ElementStash s -> false;
      case Op.ElementRestore r -> false;
      case Op.Restore r -> false;
      case Op.StripMetadataKey s -> false;
      case Op.Copy c -> false;
      case Op.CopyExcept c -> false;
      case Op.CopyFirst c -> false;
      case Op.Wrap w -> false;
      case Op.Unwrap u -> false;
      case Op.FirstElement f -> false;
      case Op.WrapInArray w -> false;
      case Op.Reshaped r -> false;
      case Op.CollapseToMap c -> false;
      case Op.ExpandFromMap e -> false;
      case Op.RemapEnum r -> false;
      case Op.Inject i -> false;
      case Op.Passthrough p -> false;
      case ValueOp.Coerce c -> false;
      case ValueOp.Scale s -> false;
      case ValueOp.TextToInteger t -> false;
      case ValueOp.IntegerToText t -> false;
      case CollectionOp.JoinList j -> false;
      case CollectionOp.SplitList s -> false;
      case CollectionOp.ArrayToMap a -> false;
      case CollectionOp.MapToArray m -> false;
      case CollectionOp.RenameKeys r -> false;
      case TextOp.SplitScalar s -> false;
      case TextOp.JoinFields j -> false;
      case TextOp.ToJsonText t -> false;
      case TextOp.FromJsonText f -> false;
      case ScriptOp.Patch p -> true; // a copy op may double the object, once per op
    };
  }
}
