package dev.versio.testkit.stories;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * One object of an {@link ExampleStory}, standing in for a user's object: the same object as
 * written at each version the story gives it in ({@code samples/NAME.VERSION.yaml}).
 *
 * @param name the sample's name, e.g. {@code full}
 * @param byVersion the object at each version, by version name, in name order
 */
public record StorySample(String name, Map<String, JsonNode> byVersion) {
  public StorySample {
    byVersion = Collections.unmodifiableSortedMap(new TreeMap<>(byVersion));
  }
}
