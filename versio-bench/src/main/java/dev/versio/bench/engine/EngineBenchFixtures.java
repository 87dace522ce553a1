package dev.versio.bench.engine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.rule.ConversionConfig;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.List;

/** Synthetic schemas and configs for the engine benchmarks (the same shapes as the reference). */
public final class EngineBenchFixtures {
  static final ObjectMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();

  private EngineBenchFixtures() {}

  static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException(e);
    }
  }

  /** A target with hub v2 and spoke v1 whose spec properties are given as YAML maps. */
  static SchemaSource target(JsonNode hubSpecProperties, JsonNode spokeSpecProperties) {
    var versions =
        List.of(
            new VersionSchema("v2", true, true, schema(hubSpecProperties)),
            new VersionSchema("v1", true, false, schema(spokeSpecProperties)));
    return new SchemaSource() {
      @Override
      public List<VersionSchema> versions() {
        return versions;
      }

      @Override
      public String describe() {
        return "CRD bench.example.test";
      }
    };
  }

  static SchemaNode schema(JsonNode specProperties) {
    var root =
        (ObjectNode)
            yaml(
                "{type: object, properties: {apiVersion: {type: string}, kind: {type: string}, metadata: {type: object}}}");
    var spec = ((ObjectNode) root.get("properties")).putObject("spec");
    spec.put("type", "object");
    spec.set("properties", specProperties);
    return SchemaNode.parse(root);
  }

  /** n string leaves f0..f(n-1) (the reference's nLeafSchema). */
  static JsonNode leaves(int n, String prefix) {
    var props = EngineJson.nodes().objectNode();
    for (int i = 0; i < n; i++) {
      props.putObject(prefix + i).put("type", "string");
    }
    return props;
  }

  /** A config with one FieldRename per leaf (hub f<i> to spoke g<i>). */
  static ConversionConfig renames(int n) {
    var sb = new StringBuilder("hubVersion: v2\nspokes:\n- version: v1\n  rules:\n");
    for (int i = 0; i < n; i++) {
      sb.append("  - {strategy: FieldRename, fieldRename: {hubPath: spec.f")
          .append(i)
          .append(", spokePath: spec.g")
          .append(i)
          .append("}}\n");
    }
    return config(sb.toString());
  }

  static ConversionConfig config(String yaml) {
    return switch (new ConfigParser().parse(yaml(yaml))) {
      case ConfigParser.Result.Parsed p -> p.config();
      case ConfigParser.Result.Invalid i ->
          throw new IllegalStateException("bad bench config: " + i.diagnostics());
    };
  }

  static CompiledConfig compile(ConversionConfig config, SchemaSource target) {
    return switch (new Compiler().compile(config, target)) {
      case CompileResult.Compiled c -> c.config();
      case CompileResult.Rejected r ->
          throw new IllegalStateException("bench config rejected: " + r.diagnostics());
    };
  }
}
