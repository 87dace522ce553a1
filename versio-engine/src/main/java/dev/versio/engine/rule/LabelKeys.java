package dev.versio.engine.rule;

import java.util.regex.Pattern;

/** Kubernetes label syntax: qualified-name keys and label values. */
public final class LabelKeys {
  private static final Pattern NAME = Pattern.compile("([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]");
  private static final Pattern DNS_SUBDOMAIN =
      Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*");

  private LabelKeys() {}

  /** Why {@code key} is not a qualified name, or null when it is one. */
  public static String qualifiedNameProblem(String key) {
    if (key == null || key.isEmpty()) {
      return "a label key must not be empty";
    }
    var slash = key.indexOf('/');
    var name = slash < 0 ? key : key.substring(slash + 1);
    if (slash >= 0) {
      var prefix = key.substring(0, slash);
      if (prefix.isEmpty() || prefix.length() > 253 || !DNS_SUBDOMAIN.matcher(prefix).matches()) {
        return "the prefix '"
            + prefix
            + "' of label key '"
            + key
            + "' must be a DNS subdomain (lower case, at most 253 characters)";
      }
    }
    if (name.isEmpty() || name.length() > 63 || !NAME.matcher(name).matches()) {
      return "the name part of label key '"
          + key
          + "' must be 1-63 characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
    }
    return null;
  }

  /** Why {@code value} is not a valid label value, or null when it is one. */
  public static String valueProblem(String value) {
    if (value.isEmpty()) {
      return null;
    }
    if (value.length() > 63 || !NAME.matcher(value).matches()) {
      return "label value '"
          + value
          + "' must be at most 63 characters of letters, digits, '-', '_' or '.', starting and ending with a letter or digit";
    }
    return null;
  }
}
