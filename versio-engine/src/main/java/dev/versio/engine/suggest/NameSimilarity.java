package dev.versio.engine.suggest;

import java.util.List;
import java.util.Map;

/**
 * How alike two field names are, from 0 (no word in common) to 1 (the same words): the Dice
 * coefficient of their stems' words, {@code 2·shared / (words in a + words in b)}. Two words are
 * the same when they are equal but for a plural ({@code replica}, {@code replicas}), when one is a
 * common abbreviation of the other ({@code db}, {@code database}), or when the shorter, of four
 * letters or more, starts the longer and keeps at most half of it ({@code repo}, {@code
 * repository}; not {@code route}, {@code router}, nor {@code token}, {@code tokenizer}). Units are
 * not words: they are compared by the caller.
 */
final class NameSimilarity {
  private NameSimilarity() {}

  /** Abbreviations too short or too irregular to be caught as a prefix. */
  private static final Map<String, String> ABBREVIATIONS =
      Map.ofEntries(
          Map.entry("addr", "address"),
          Map.entry("app", "application"),
          Map.entry("attr", "attribute"),
          Map.entry("auth", "authentication"),
          Map.entry("cert", "certificate"),
          Map.entry("cfg", "config"),
          Map.entry("cnt", "count"),
          Map.entry("conf", "config"),
          Map.entry("ctx", "context"),
          Map.entry("db", "database"),
          Map.entry("desc", "description"),
          Map.entry("dir", "directory"),
          Map.entry("env", "environment"),
          Map.entry("img", "image"),
          Map.entry("info", "information"),
          Map.entry("max", "maximum"),
          Map.entry("mem", "memory"),
          Map.entry("min", "minimum"),
          Map.entry("msg", "message"),
          Map.entry("num", "number"),
          Map.entry("param", "parameter"),
          Map.entry("passwd", "password"),
          Map.entry("pwd", "password"),
          Map.entry("repl", "replica"),
          Map.entry("req", "request"),
          Map.entry("resp", "response"),
          Map.entry("svc", "service"),
          Map.entry("ver", "version"),
          Map.entry("vol", "volume"));

  static double of(FieldName a, FieldName b) {
    if (a.joinedStem().equals(b.joinedStem())) {
      return 1.0; // maxsurge, max_surge
    }
    return dice(a.stem(), b.stem());
  }

  private static double dice(List<String> a, List<String> b) {
    var used = new boolean[b.size()];
    int shared = 0;
    for (var word : a) {
      for (int j = 0; j < b.size(); j++) {
        if (!used[j] && sameWord(word, b.get(j))) {
          used[j] = true;
          shared++;
          break;
        }
      }
    }
    return 2.0 * shared / (a.size() + b.size());
  }

  static boolean sameWord(String a, String b) {
    var x = ABBREVIATIONS.getOrDefault(a, a);
    var y = ABBREVIATIONS.getOrDefault(b, b);
    if (x.equals(y) || singular(x).equals(singular(y))) {
      return true;
    }
    var shorter = x.length() <= y.length() ? x : y;
    var longer = shorter == x ? y : x;
    return shorter.length() >= 4
        && 2 * shorter.length() <= longer.length()
        && longer.startsWith(shorter);
  }

  /** {@code replicas} → {@code replica}, {@code policies} → {@code policy}, {@code status} kept. */
  private static String singular(String word) {
    if (word.length() > 4 && word.endsWith("ies")) {
      return word.substring(0, word.length() - 3) + "y";
    }
    if (word.length() > 4 && (word.endsWith("sses") || word.endsWith("xes"))) {
      return word.substring(0, word.length() - 2);
    }
    if (word.length() > 3
        && word.endsWith("s")
        && !word.endsWith("ss")
        && !word.endsWith("us")
        && !word.endsWith("is")) {
      return word.substring(0, word.length() - 1);
    }
    return word;
  }
}
