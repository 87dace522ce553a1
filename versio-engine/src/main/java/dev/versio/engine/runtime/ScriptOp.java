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
   * destination found in the resulting map (nested path first, then a flat dotted key). A {@code
   * null} leaves the destination out unless its schema is {@code nullable}: the expression says
   * "nothing here" without a second branch.
   *
   * @param nullable the destinations whose schema says {@code nullable: true}
   * @param costLimit the most expression nodes one evaluation may visit
   * @param sizeLimit the most elements and characters the values of one evaluation may hold
   *     together ({@link CelBudget}); the result is held to it too when it becomes JSON
   */
  record Cel(
      String expression,
      CelRuntime.Program program,
      List<FieldPath> destinations,
      java.util.Set<FieldPath> nullable,
      long costLimit,
      long sizeLimit)
      implements ScriptOp {
    public Cel {
      destinations = List.copyOf(destinations);
      nullable = java.util.Set.copyOf(nullable);
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      Object result;
      var budget = new CelBudget(costLimit, sizeLimit);
      try {
        result = program.trace(Map.of("object", CelValues.toCel(input)), budget);
      } catch (CelBudget.Spent e) {
        throw new OpFailure(budget.exceeded());
      } catch (CelEvaluationException e) {
        throw new OpFailure(
            budget.exceeded() != null ? budget.exceeded() : describe(e.getMessage()));
      }
      if (budget.exceeded() != null) {
        throw new OpFailure(budget.exceeded()); // spent, but an error value swallowed it
      }
      if (!(result instanceof Map<?, ?>)) {
        throw new OpFailure(
            "the expression must produce a map of destination paths, produced a "
                + (result == null ? "null" : result.getClass().getSimpleName()));
      }
      var map = CelValues.toJson(result, sizeLimit);
      for (var path : destinations) {
        var value = Tree.get(map, path);
        if (value == null) {
          value = map.get(path.toString());
        }
        if (value != null && (!value.isNull() || nullable.contains(path))) {
          Tree.set(output, path, value);
        }
      }
    }

    private String describe(String message) {
      if (message != null && message.contains("Iteration budget exceeded")) {
        return "the expression exceeded its cost limit (10000 loop iterations in one evaluation)";
      }
      if (message != null
          && (message.contains("is not present in map") || message.contains("no such key"))) {
        return "the expression failed at "
            + CelMessages.evaluation(expression, message)
            + " (guard optional fields with has(object.spec.x) or object.?spec.?x)";
      }
      return "the expression failed at " + CelMessages.evaluation(expression, message);
    }
  }
}
