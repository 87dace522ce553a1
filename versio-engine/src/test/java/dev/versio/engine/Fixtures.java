package dev.versio.engine;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.compile.CompileResult;
import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.compile.Compiler;
import dev.versio.engine.diagnostic.Diagnostic;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.route.Router;
import dev.versio.engine.rule.ConfigParser;
import dev.versio.engine.schema.SchemaNode;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.util.List;

/** Test helpers: YAML in, compiled configs and routers out. */
public final class Fixtures {
  public static final ObjectMapper YAML = EngineJson.configure(YAMLMapper.builder()).build();
  public static final String GROUP = "example.test";

  private Fixtures() {}

  public static JsonNode yaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (Exception e) {
      throw new IllegalArgumentException("bad test YAML: " + e.getMessage() + "\n" + text, e);
    }
  }

  public static ObjectNode object(String text) {
    return (ObjectNode) yaml(text);
  }

  /** An object schema whose {@code spec} has the given properties (YAML of the properties map). */
  public static SchemaNode specSchema(String specPropertiesYaml) {
    var root =
        object(
            """
        type: object
        properties:
          apiVersion: {type: string}
          kind: {type: string}
          metadata: {type: object}
        """);
    var spec = ((ObjectNode) root.get("properties")).putObject("spec");
    spec.put("type", "object");
    spec.set("properties", yaml(specPropertiesYaml));
    return SchemaNode.parse(root);
  }

  /** A target with a hub {@code v2} (storage) and a spoke {@code v1}, both served. */
  public static SchemaSource target(String hubSpecProperties, String spokeSpecProperties) {
    return target(
        new VersionSchema("v2", true, true, specSchema(hubSpecProperties)),
        new VersionSchema("v1", true, false, specSchema(spokeSpecProperties)));
  }

  public static SchemaSource target(VersionSchema... versions) {
    return storing(List.of(), versions);
  }

  /** A target whose {@code status.storedVersions} are {@code stored}. */
  public static SchemaSource storing(List<String> stored, VersionSchema... versions) {
    var list = List.of(versions);
    var storedCopy = List.copyOf(stored);
    return new SchemaSource() {
      @Override
      public List<VersionSchema> versions() {
        return list;
      }

      @Override
      public String describe() {
        return "CRD widgets.example.test";
      }

      @Override
      public List<String> storedVersions() {
        return storedCopy;
      }
    };
  }

  /** A config with hub v2 and spoke v1 whose rules are the given YAML list. */
  public static String spokeRules(String rulesYaml) {
    return "hubVersion: v2\nspokes:\n- version: v1\n  rules:\n" + rulesYaml.indent(4);
  }

  public static CompileResult compile(SchemaSource target, String configYaml) {
    var parsed = new ConfigParser().parse(yaml(configYaml));
    return switch (parsed) {
      case ConfigParser.Result.Invalid invalid -> new CompileResult.Rejected(invalid.diagnostics());
      case ConfigParser.Result.Parsed ok -> new Compiler().compile(ok.config(), target);
    };
  }

  /** The analysis of a config that parses (verdicts, rule results, counterexamples). */
  public static dev.versio.engine.compile.AnalyzeReport analyzed(
      SchemaSource target, String configYaml) {
    return switch (new ConfigParser().parse(yaml(configYaml))) {
      case ConfigParser.Result.Invalid invalid ->
          fail("expected the config to parse, got:\n" + lines(invalid.diagnostics()));
      case ConfigParser.Result.Parsed ok -> new Compiler().analyze(ok.config(), target);
    };
  }

  public static CompiledConfig compiled(SchemaSource target, String configYaml) {
    return switch (compile(target, configYaml)) {
      case CompileResult.Compiled c -> c.config();
      case CompileResult.Rejected r ->
          fail("expected the config to compile, got:\n" + lines(r.diagnostics()));
    };
  }

  public static List<Diagnostic> rejected(SchemaSource target, String configYaml) {
    return switch (compile(target, configYaml)) {
      case CompileResult.Compiled c -> fail("expected the config to be rejected, but it compiled");
      case CompileResult.Rejected r -> r.diagnostics();
    };
  }

  public static Router router(SchemaSource target, String configYaml) {
    return new Router(compiled(target, configYaml), GROUP);
  }

  public static String lines(List<Diagnostic> diagnostics) {
    var sb = new StringBuilder();
    diagnostics.forEach(d -> sb.append("  ").append(d).append('\n'));
    return sb.toString();
  }
}
