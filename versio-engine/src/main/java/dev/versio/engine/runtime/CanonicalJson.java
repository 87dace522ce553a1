package dev.versio.engine.runtime;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.JsonNodeFeature;
import dev.versio.engine.json.EngineJson;

/**
 * JSON text for values stored in annotations and labels: object keys sorted, numbers written
 * exactly as they are held (never in exponent form), so the same value always gives the same text.
 */
public final class CanonicalJson {
  private final ObjectMapper mapper;

  public CanonicalJson() {
    mapper = EngineJson.newMapper();
    mapper.configure(JsonNodeFeature.WRITE_PROPERTIES_SORTED, true);
    mapper.configure(JsonGenerator.Feature.WRITE_BIGDECIMAL_AS_PLAIN, true);
  }

  String write(JsonNode value) {
    try {
      return mapper.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      throw new OpFailure("cannot serialize value: " + e.getOriginalMessage());
    }
  }

  JsonNode read(String text) {
    try {
      return mapper.readTree(text);
    } catch (JsonProcessingException e) {
      throw new OpFailure(
          "value '"
              + abbreviate(text)
              + "' is not valid JSON ("
              + e.getOriginalMessage()
              + "); write it JSON-encoded (e.g. a string with quotes) or use serialization: String");
    }
  }

  /** The value of JSON text, or null when the text is not valid JSON. */
  JsonNode parseOrNull(String text) {
    try {
      return mapper.readTree(text);
    } catch (JsonProcessingException e) {
      return null;
    }
  }

  static String abbreviate(String text) {
    return text.length() <= 60 ? text : text.substring(0, 57) + "...";
  }
}
