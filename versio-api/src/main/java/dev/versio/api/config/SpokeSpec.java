package dev.versio.api.config;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.crd.generator.annotation.PreserveUnknownFields;
import io.fabric8.generator.annotation.Required;
import java.util.ArrayList;
import java.util.List;

/**
 * The rules between the hub and one spoke version. Rules are kept schemaless in the CRD (their
 * shape is a 29-way union): the engine parses and validates them, and admission rejects a config
 * whose rules do not parse.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class SpokeSpec {
  @Required public String version;

  @PreserveUnknownFields public List<JsonNode> rules = new ArrayList<>();
}
