package dev.versio.engine.json;

import com.fasterxml.jackson.databind.JsonNode;

/** Deep equality of JSON trees where numbers compare by value (1 == 1.0) at every depth. */
final class NumericAwareComparator {
  private NumericAwareComparator() {}

  static boolean equal(JsonNode a, JsonNode b) {
    if (a.isNumber() && b.isNumber()) {
      return a.decimalValue().compareTo(b.decimalValue()) == 0;
    }
    if (a.getNodeType() != b.getNodeType()) {
      return false;
    }
    if (a.isArray()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (int i = 0; i < a.size(); i++) {
        if (!equal(a.get(i), b.get(i))) {
          return false;
        }
      }
      return true;
    }
    if (a.isObject()) {
      if (a.size() != b.size()) {
        return false;
      }
      for (var entry : a.properties()) {
        var other = b.get(entry.getKey());
        if (other == null || !equal(entry.getValue(), other)) {
          return false;
        }
      }
      return true;
    }
    return a.equals(b);
  }
}
