package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules between the hub and one spoke version. The generator writes {@code rules} schemaless;
 * the build then replaces that with the typed schema of {@link dev.versio.api.crd.RuleSchema},
 * generated from the engine's strategy catalog. The engine still parses and validates every rule,
 * and admission rejects a config whose rules do not parse.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SpokeSpec {
  @Required public String version;

  @PreserveUnknownFields public List<JsonNode> rules = new ArrayList<>();
}
