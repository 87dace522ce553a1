package dev.versio.engine.compile;

import dev.versio.engine.schema.TextBounds;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Probe texts that keep to a pattern or lengths, found once per spoke's compile: finding one is an
 * automaton intersection per probe text, and a deep schema repeats the same bounds in many places
 * (a header name in every list of headers). One compile, one thread: not shared.
 */
final class ProbeCache {
  private record Key(TextBounds bounds, List<String> literals) {}

  private final Map<Key, List<String>> within = new HashMap<>();

  List<String> textsWithin(TextBounds bounds, List<String> literals, Supplier<List<String>> find) {
    var key = new Key(bounds, literals);
    var found = within.get(key);
    if (found == null) {
      found = List.copyOf(find.get());
      within.put(key, found);
    }
    return found;
  }
}
