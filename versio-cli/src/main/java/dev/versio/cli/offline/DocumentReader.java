package dev.versio.cli.offline;

import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.exc.StreamReadException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.versio.engine.json.EngineJson;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * Reads the documents of one input. JSON (a {@code .json} file, or text that starts with {@code {}
 * or {@code [}) goes through Jackson's streaming JSON parser, in time linear in its size; anything
 * else is YAML, capped by {@link InputLimits}. A key given twice in one mapping is an error that
 * names both lines, as is a file that is not UTF-8 text.
 */
final class DocumentReader {
  /** One document of a file: its position (1-based) and the line it starts on. */
  record Document(InputFile file, int index, int line, JsonNode node) {}

  private final InputLimits limits;

  DocumentReader(InputLimits limits) {
    this.limits = limits;
  }

  List<Document> read(InputFile file, byte[] bytes) {
    if (looksBinary(bytes)) {
      throw new LoadError(
          file.label() + " is not UTF-8 text (a binary file?); pass a YAML or JSON file");
    }
    boolean json = file.namedJson() || startsLikeJson(bytes);
    if (json) {
      try {
        return parse(file, bytes, true);
      } catch (LoadError e) {
        if (file.namedJson()) {
          throw e;
        }
        // text that merely starts like JSON may still be YAML ({a: b}); YAML decides
      }
    }
    return parse(file, withoutAliases(file, bytes), false);
  }

  /** The YAML text with its anchors and aliases resolved, or the bytes as they are without any. */
  private byte[] withoutAliases(InputFile file, byte[] bytes) {
    var text = new String(bytes, java.nio.charset.StandardCharsets.UTF_8);
    try {
      if (!YamlAliases.used(text, loaderOptions())) {
        return bytes;
      }
    } catch (RuntimeException e) {
      return bytes; // not YAML the resolver reads: the parser below says what is wrong
    }
    try {
      return new YamlAliases(loaderOptions())
          .expand(text)
          .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    } catch (RuntimeException e) {
      throw new LoadError(
          file.label() + ": cannot resolve its YAML aliases: " + e.getMessage().strip());
    }
  }

  private LoaderOptions loaderOptions() {
    var options = new LoaderOptions();
    options.setCodePointLimit((int) Math.min(Integer.MAX_VALUE, limits.maxYamlChars()));
    return options;
  }

  private List<Document> parse(InputFile file, byte[] bytes, boolean json) {
    var mapper = json ? jsonMapper(true) : yamlMapper(true);
    var out = new ArrayList<Document>();
    try (var parser = mapper.createParser(bytes)) {
      int index = 0;
      while (parser.nextToken() != null) {
        index++;
        int line = parser.currentTokenLocation().getLineNr();
        JsonNode doc = mapper.readTree(parser);
        if (doc != null && !doc.isNull() && !doc.isMissingNode()) {
          out.add(new Document(file, index, line, doc));
        }
      }
      return out;
    } catch (StreamReadException e) {
      var duplicate = duplicateKey(file, bytes, json ? jsonMapper(false) : yamlMapper(false), e);
      throw new LoadError(duplicate != null ? duplicate : describe(file, e));
    } catch (IOException | RuntimeException e) {
      throw new LoadError(describe(file, e));
    }
  }

  private String describe(InputFile file, Throwable e) {
    var message = SyntaxError.describe(file.label(), e);
    if (SyntaxError.isSizeLimit(e)) {
      return file.label()
          + " holds a YAML document larger than "
          + InputLimits.describe(limits.maxYamlChars())
          + " characters; raise the limit with "
          + InputLimits.FLAG
          + " (e.g. "
          + InputLimits.FLAG
          + " 256Mi), or pass the data as JSON, which is streamed without a limit";
    }
    return message;
  }

  /**
   * For a "Duplicate field" error: {@code file:line:column: key 'x' appears twice in one mapping
   * (first on line N)}; null for any other error.
   */
  private static String duplicateKey(
      InputFile file, byte[] bytes, ObjectMapper lenient, StreamReadException error) {
    if (error.getOriginalMessage() == null
        || !error.getOriginalMessage().startsWith("Duplicate field")) {
      return null;
    }
    // read again without the check, remembering where each key of each open mapping was first
    try (var parser = lenient.createParser(bytes)) {
      var open = new ArrayDeque<Map<String, Integer>>();
      JsonToken token;
      while ((token = parser.nextToken()) != null) {
        switch (token) {
          case START_OBJECT -> open.push(new HashMap<>());
          case END_OBJECT -> open.pop();
          case FIELD_NAME -> {
            var at = parser.currentTokenLocation();
            var first = open.peek().putIfAbsent(parser.currentName(), at.getLineNr());
            if (first != null) {
              return file.label()
                  + ":"
                  + at.getLineNr()
                  + ":"
                  + at.getColumnNr()
                  + ": key '"
                  + parser.currentName()
                  + "' appears twice in one mapping (first on line "
                  + first
                  + "); keep one of them";
            }
          }
          default -> {}
        }
      }
    } catch (IOException | RuntimeException ignored) {
      // fall back to the parser's own message
    }
    return null;
  }

  private ObjectMapper jsonMapper(boolean strict) {
    return EngineJson.configure(JsonMapper.builder())
        .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, strict)
        .build();
  }

  private ObjectMapper yamlMapper(boolean strict) {
    var options = loaderOptions();
    // the builder does not start from YAMLFactory's defaults: an empty value must stay null
    var factory =
        YAMLFactory.builder()
            .loaderOptions(options)
            .enable(YAMLParser.Feature.EMPTY_STRING_AS_NULL)
            .build();
    return EngineJson.configure(YAMLMapper.builder(factory))
        .configure(StreamReadFeature.STRICT_DUPLICATE_DETECTION, strict)
        .build();
  }

  private static boolean startsLikeJson(byte[] bytes) {
    for (byte b : bytes) {
      if (b == ' ' || b == '\t' || b == '\r' || b == '\n') {
        continue;
      }
      return b == '{' || b == '[';
    }
    return false;
  }

  /** A NUL byte in the first 8 KiB: no YAML or JSON text has one. */
  private static boolean looksBinary(byte[] bytes) {
    for (int i = 0; i < Math.min(bytes.length, 8192); i++) {
      if (bytes[i] == 0) {
        return true;
      }
    }
    return false;
  }
}
