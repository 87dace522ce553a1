package dev.versio.engine.runtime;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.flipkart.zjsonpatch.JsonPatch;
import com.flipkart.zjsonpatch.JsonPatchApplicationException;
import dev.cel.runtime.CelEvaluationException;
import dev.cel.runtime.CelRuntime;
import dev.versio.engine.FieldPath;
import java.util.List;
import java.util.Map;

/** The escape hatches: an RFC 6902 patch, or a CEL expression, over the whole input. */
public sealed interface ScriptOp extends Op {

  /**
   * Applies {@code patch} to the pristine input, then copies each patched {@code path} into the
   * output (or removes it from the output when the patch removed it).
   */
  record Patch(JsonNode patch, List<FieldPath> paths) implements ScriptOp {
    public Patch {
      patch = patch.deepCopy();
      paths = List.copyOf(paths);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      JsonNode patched;
      try {
        patched = JsonPatch.apply(patch, input);
      } catch (JsonPatchApplicationException | IllegalArgumentException e) {
        throw new OpFailure("the patch does not apply: " + e.getMessage());
      }
      for (var path : paths) {
        var value = Tree.get(patched, path);
        if (value != null) {
          Tree.set(output, path, value.deepCopy());
        } else {
          Tree.deletePruning(output, path, path.size() - 1);
        }
      }
    }
  }

  /**
   * Evaluates a compiled CEL program with {@code object} bound to the input and writes each
   * destination found in the resulting map (nested path first, then a flat dotted key).
   *
   * @param costLimit the most expression nodes one evaluation may visit
   */
  record Cel(
      String expression, CelRuntime.Program program, List<FieldPath> destinations, long costLimit)
      implements ScriptOp {
    public Cel {
      destinations = List.copyOf(destinations);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      Object result;
      var budget = new long[] {costLimit};
      try {
        result =
            program.trace(
                Map.of("object", CelValues.toCel(input)),
                (expr, value) -> {
                  if (--budget[0] < 0) {
                    throw new CostExceeded();
                  }
                });
      } catch (CostExceeded e) {
        throw new OpFailure(
            "the expression exceeded its cost limit of " + costLimit + " evaluation steps");
      } catch (CelEvaluationException e) {
        throw new OpFailure(describe(e));
      }
      if (!(result instanceof Map<?, ?>)) {
        throw new OpFailure(
            "the expression must produce a map of destination paths, produced " + result);
      }
      var map = CelValues.toJson(result);
      for (var path : destinations) {
        var value = Tree.get(map, path);
        if (value == null) {
          value = map.get(path.toString());
        }
        if (value != null) {
          Tree.set(output, path, value);
        }
      }
    }

    private String describe(CelEvaluationException e) {
      var message = String.valueOf(e.getMessage());
      if (e.getCause() instanceof CostExceeded || message.contains("Iteration budget exceeded")) {
        return "the expression exceeded its cost limit ("
            + costLimit
            + " evaluation steps, 10000 iterations per loop)";
      }
      if (message.contains("is not present in map") || message.contains("no such key")) {
        return "the expression failed: "
            + message
            + " (guard optional fields with has(object.spec.x))";
      }
      return "the expression failed: " + message;
    }

    /** Thrown from the evaluation listener when the budget is spent. */
    static final class CostExceeded extends RuntimeException {
      CostExceeded() {
        super("cost limit exceeded", null, false, false);
      }
    }
  }
}
