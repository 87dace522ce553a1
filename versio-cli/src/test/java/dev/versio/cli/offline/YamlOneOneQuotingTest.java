package dev.versio.cli.offline;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import dev.versio.engine.json.EngineJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

class YamlOneOneQuotingTest {
  private static String yaml(String key, String value) {
    var node = EngineJson.nodes().objectNode().put(key, value);
    var out = new StringWriter();
    Output.structured(new PrintWriter(out, true), node, true);
    return out.toString();
  }

  @Test
  void stringsAYamlOneOneReaderWouldReadAsSomethingElseAreQuoted() {
    assertThat(yaml("at", "12:30")).isEqualTo("at: \"12:30\"\n");
    assertThat(yaml("op", "=")).isEqualTo("op: \"=\"\n");
    assertThat(yaml("merge", "<<")).isEqualTo("merge: \"<<\"\n");
    assertThat(yaml("nothing", "~")).isEqualTo("nothing: \"~\"\n");
    assertThat(yaml("plain", "redis")).isEqualTo("plain: redis\n");
    assertThat(yaml("url", "http://a:80/b")).doesNotContain("\"http");
  }

  @Test
  void aYamlOneOneReaderReadsEveryQuotedValueBackAsTheSameString() throws Exception {
    // negative control: unquoted, this reader takes 12:30 for the base-60 number 750
    assertThat(((java.util.Map<?, ?>) new Yaml().load("v: 12:30\n")).get("v")).isEqualTo(750);
    for (var value : new String[] {"12:30", "-1:20:00", "190:20:30.15", "=", "<<", "~", "yes"}) {
      var text = yaml("v", value);
      // SnakeYAML 1.x follows YAML 1.1, as kubectl's reader does
      Object read = ((java.util.Map<?, ?>) new Yaml().load(text)).get("v");
      assertThat(read).as(text).isEqualTo(value);
      assertThat(new YAMLMapper().readTree(text).path("v").asText()).isEqualTo(value);
    }
  }
}
