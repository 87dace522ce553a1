package dev.versio.cli.offline;

import com.fasterxml.jackson.dataformat.yaml.util.StringQuotingChecker;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Quotes the strings a YAML 1.1 reader (kubectl's, PyYAML, many CI tools) would not read back as
 * the same string, beyond what Jackson quotes by itself: base-60 numbers such as {@code 12:30}
 * (read as 750) and the 1.1 specials {@code =} (the "value" key, which readers refuse), {@code <<}
 * (a merge key) and {@code ~} (null).
 */
final class YamlOneOneQuoting extends StringQuotingChecker.Default {
  private static final long serialVersionUID = 1L;

  /** YAML 1.1 sexagesimal integers and floats, e.g. 12:30, -1:20:00, 190:20:30.15. */
  private static final Pattern BASE_60 =
      Pattern.compile("[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+(\\.[0-9_]*)?");

  private static final Set<String> SPECIALS = Set.of("=", "<<", "~");

  @Override
  public boolean needToQuoteValue(String value) {
    return super.needToQuoteValue(value) || oneOneSpecial(value);
  }

  @Override
  public boolean needToQuoteName(String name) {
    return super.needToQuoteName(name) || oneOneSpecial(name);
  }

  private static boolean oneOneSpecial(String text) {
    return SPECIALS.contains(text) || BASE_60.matcher(text).matches();
  }
}
