package dev.versio.api.crd;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

class TypedRulesTest {
  static final List<String> CONFIG_CRDS = TypedRules.CONFIG_CRDS;

  @ParameterizedTest
  @FieldSource("CONFIG_CRDS")
  void typingReplacesOnlyTheSchemalessRulesAndIsIdempotent(String file) throws IOException {
    var typed = Files.readString(Path.of("target/classes/META-INF/fabric8", file));
    assertThat(TypedRules.typed(typed)).isEqualTo(typed);

    var untyped = untyped(typed);
    assertThat(untyped).doesNotContain("fieldRename");
    assertThat(TypedRules.typed(untyped)).isEqualTo(typed);
  }

  /** The file as the CRD generator writes it: rules schemaless, and its header only. */
  private static String untyped(String typed) {
    var lines = typed.lines().toList();
    var out = new StringBuilder();
    int skipDeeperThan = -1;
    for (var line : lines) {
      int indent = line.length() - line.stripLeading().length();
      if (skipDeeperThan >= 0) {
        if (indent > skipDeeperThan) {
          continue;
        }
        skipDeeperThan = -1;
      }
      if (line.startsWith("# spec.spokes[].rules")) {
        continue;
      }
      out.append(line).append('\n');
      if (line.strip().equals("rules:")) {
        var pad = " ".repeat(indent + 2);
        out.append(pad).append("items:\n");
        out.append(pad).append("  x-kubernetes-preserve-unknown-fields: true\n");
        out.append(pad).append("type: \"array\"\n");
        out.append(pad).append("x-kubernetes-preserve-unknown-fields: true\n");
        skipDeeperThan = indent;
      }
    }
    return out.toString();
  }
}
