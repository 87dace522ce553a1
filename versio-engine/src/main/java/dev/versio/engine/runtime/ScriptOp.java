package dev.versio.engine.runtime;

import com.fasterxml.jackson.core.JsonPointer;
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
   * Applies {@code patch} to the pristine input, one operation after another, then copies each
   * patched {@code path} into the output (or removes it from the output when the patch removed it).
   * Like every other strategy, an operation writes nothing when what it reads is absent: a {@code
   * move} or {@code copy} whose {@code from}, a {@code remove} or {@code replace} whose {@code
   * path} is absent is skipped, so an object lacking fields (as server-side apply sends them)
   * converts; an {@code add}, {@code move} or {@code copy} creates the objects missing above its
   * {@code path}. A {@code test} of an absent path fails the conversion, as does one of a present
   * path that does not hold its value.
   */
  record Patch(JsonNode patch, List<FieldPath> paths, List<JsonNode> operations)
      implements ScriptOp {
    public Patch {
      patch = patch.deepCopy();
      paths = paths.stream().map(Patch::aboveArrays).distinct().toList();
      operations = List.copyOf(operations);
    }

    /**
     * {@code path} up to its first segment that may be an array position ({@code -} or digits): the
     * copy-back takes the whole array (or object) from the patched input, which holds the input's
     * own values too, instead of a path that no tree lookup can follow.
     */
    private static FieldPath aboveArrays(FieldPath path) {
      var segments = path.segments();
      for (int i = 0; i < segments.size(); i++) {
        var segment = segments.get(i);
        if (i > 0 && (segment.equals("-") || segment.chars().allMatch(Character::isDigit))) {
          return new FieldPath(segments.subList(0, i));
        }
      }
      return path;
    }

    public Patch(JsonNode patch, List<FieldPath> paths) {
      this(patch, paths, singleOperations(patch));
    }

    /** Each operation of {@code patch} as a patch of its own, applied one by one. */
    private static List<JsonNode> singleOperations(JsonNode patch) {
      var out = new java.util.ArrayList<JsonNode>();
      for (var operation : patch) {
        out.add(dev.versio.engine.json.EngineJson.nodes().arrayNode().add(operation.deepCopy()));
      }
      return out;
    }

    @Override
    public void apply(JsonNode input, ObjectNode output) {
      var patched = input.deepCopy();
      for (var single : operations) {
        var operation = single.get(0);
        var kind = operation.path("op").asText();
        var path = operation.path("path").asText();
        var read =
            switch (kind) {
              case "move", "copy" -> operation.path("from").asText();
              case "remove", "replace", "test" -> path;
              default -> null;
            };
        if (read != null && absent(patched, read)) {
          if (kind.equals("test")) {
            throw new OpFailure("the patch tests " + read + ", which is absent", true);
          }
          continue;
        }
        if (kind.equals("add") || kind.equals("move") || kind.equals("copy")) {
          createParents(patched, path);
        }
        try {
          JsonPatch.applyInPlace(single, patched);
        } catch (JsonPatchApplicationException | IllegalArgumentException e) {
          throw new OpFailure("the patch does not apply: " + e.getMessage());
        }
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

    private static boolean absent(JsonNode document, String pointer) {
      try {
        return document.at(JsonPointer.compile(pointer)).isMissingNode();
      } catch (IllegalArgumentException e) {
        return false; // not a JSON Pointer: the operation fails with the library's message
      }
    }

    /**
     * Creates the objects missing above {@code pointer}; stops at anything but an object, and where
     * the next segment is an array index or {@code -} (an array would belong there).
     */
    private static void createParents(JsonNode document, String pointer) {
      JsonPointer at;
      try {
        at = JsonPointer.compile(pointer);
      } catch (IllegalArgumentException e) {
        return;
      }
      var node = document;
      while (at.tail() != null && !at.tail().matches()) {
        if (!(node instanceof ObjectNode object)) {
          return;
        }
        var name = at.getMatchingProperty();
        var next = object.get(name);
        if (next == null) {
          var below = at.tail().getMatchingProperty();
          if (below.equals("-") || at.tail().mayMatchElement()) {
            return; // an array would belong here: the operation fails as RFC 6902 says
          }
          next = object.putObject(name);
        }
        node = next;
        at = at.tail();
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
      List<FieldPath> sources,
      List<FieldPath> destinations,
      java.util.Set<FieldPath> nullable,
      long costLimit,
      long sizeLimit)
      implements ScriptOp {
    public Cel {
      sources = List.copyOf(sources);
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
        if (budget.exceeded() == null && readsAbsentField(e.getMessage())) {
          boolean anyPresent = false;
          boolean anyAbsent = false;
          for (var source : sources) {
            boolean present = Tree.get(input, source) != null;
            anyPresent |= present;
            anyAbsent |= !present;
          }
          if (!anyPresent) {
            return; // none of its sources is here: nothing to convert, as for every strategy
          }
          // incomplete only when one of its own sources is missing; a missing map key or another
          // field it reads is the expression's own failure
          throw new OpFailure(describe(e.getMessage()), anyAbsent);
        }
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

    private static boolean readsAbsentField(String message) {
      return message != null
          && (message.contains("is not present in map") || message.contains("no such key"));
    }

    private String describe(String message) {
      if (message != null && message.contains("Iteration budget exceeded")) {
        return "the expression exceeded its cost limit (10000 loop iterations in one evaluation)";
      }
      if (readsAbsentField(message)) {
        return "the expression failed at "
            + CelMessages.evaluation(expression, message)
            + " (guard optional fields with has(object.spec.x) or object.?spec.?x)";
      }
      return "the expression failed at " + CelMessages.evaluation(expression, message);
    }
  }
}
