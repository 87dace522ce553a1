package dev.versio.engine.suggest;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.versio.engine.Fixtures;
import dev.versio.engine.json.EngineJson;
import dev.versio.engine.rule.Strategy;
import dev.versio.engine.schema.SchemaSource;
import dev.versio.engine.schema.VersionSchema;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A seeded generator of schema changes with known answers. It draws a hub schema ({@code spec} with
 * 8 to 14 fields and one or two sub-objects of 3 to 6), copies it as the spoke and applies 2 to 6
 * {@link Change changes}, each to a field no other change touched. Every change records the rule a
 * correct config would hold, or none for the decoys. Its word lists, abbreviations, synonyms and
 * units are its own, not the suggester's: some abbreviations ({@code intvl}, {@code tmo}) are
 * beyond the suggester on purpose.
 */
final class GeneratedRenames {
  /** What a change does to one hub field, and what a correct config answers. */
  enum Change {
    /** {@code maxSurge} → {@code max_surge}, {@code MaxSurge}, {@code maxsurge}: FieldRename. */
    CASE(true),
    /** One word abbreviated ({@code database} → {@code db}): FieldRename. */
    ABBREVIATION(true),
    /** The words rotated ({@code maxReplicas} → {@code replicasMax}): FieldRename. */
    REORDER(true),
    /** A word dropped or added ({@code burstLimit} → {@code burst}): FieldRename. */
    QUALIFIER(true),
    /** Another unit, or another spelling of it ({@code timeoutMs} → {@code timeoutSeconds}). */
    UNIT(true),
    /** The same name under another parent, new in the spoke or not: FieldRename. */
    MOVE(true),
    /** One word replaced by a synonym ({@code replicas} → {@code instances}): FieldRename. */
    SYNONYM(true),
    /** The same path with another scalar type: TypeCoerce. */
    RETYPE(true),
    /** A duration text becomes {@code <name>Seconds}, an integer: Duration. */
    DURATION(true),
    /** The field removed, an unrelated one of the same type added next to it. */
    DECOY_UNRELATED(false),
    /** One word of a name of two or three replaced by an unrelated word ({@code cpuLimit}). */
    DECOY_NEAR(false),
    /**
     * The field removed, one named like it plus a word added ({@code owner}, {@code ownerEmail}).
     */
    DECOY_EXTENSION(false),
    /** A number with a unit removed, another with a different stem and unit added. */
    DECOY_UNIT(false),
    /** One word replaced by a longer, different word it starts ({@code route} → {@code router}). */
    DECOY_PREFIX(false),
    /** The field removed, one of the same name and type added under another existing parent. */
    DECOY_SAME_NAME(false),
    /** A field removed and an unrelated one of any type added anywhere. */
    REMOVED_AND_ADDED(false);

    final boolean hasRule;

    Change(boolean hasRule) {
      this.hasRule = hasRule;
    }
  }

  /** One generated hub/spoke pair and the rules a correct config holds. */
  record Scenario(
      long seed, SchemaSource target, Map<RuleKey, Change> expected, List<Change> changes) {}

  private enum Type {
    STRING,
    INTEGER,
    NUMBER,
    BOOLEAN,
    MAP,
    ARRAY
  }

  private record Field(String parent, List<String> words, String unit, Type type) {
    String name() {
      var sb = new StringBuilder(words.getFirst());
      words.subList(1, words.size()).forEach(w -> sb.append(capital(w)));
      return unit == null ? sb.toString() : sb + unit;
    }

    String path() {
      return "spec." + (parent.isEmpty() ? "" : parent + ".") + name();
    }

    Field named(List<String> newWords) {
      return new Field(parent, List.copyOf(newWords), unit, type);
    }
  }

  /** A field whose name was set verbatim (case changes). */
  private record Verbatim(String parent, String name, Type type) {}

  private static final List<String> NOUNS =
      List.of(
          "replica",
          "image",
          "policy",
          "timeout",
          "retry",
          "port",
          "host",
          "node",
          "pool",
          "storage",
          "owner",
          "team",
          "region",
          "zone",
          "backup",
          "schedule",
          "window",
          "interval",
          "threshold",
          "burst",
          "rate",
          "cache",
          "log",
          "level",
          "queue",
          "worker",
          "shard",
          "partition",
          "bucket",
          "endpoint",
          "secret",
          "token",
          "certificate",
          "database",
          "connection",
          "request",
          "response",
          "memory",
          "volume",
          "snapshot",
          "retention",
          "priority",
          "label",
          "tenant",
          "quota",
          "budget",
          "channel",
          "topic",
          "cluster",
          "network",
          "subnet",
          "route",
          "gateway",
          "service",
          "account",
          "role",
          "user",
          "password",
          "version",
          "feature",
          "mode",
          "format",
          "prefix",
          "repository",
          "configuration",
          "environment",
          "time");
  private static final List<String> QUALIFIERS =
      List.of(
          "max",
          "min",
          "default",
          "initial",
          "read",
          "write",
          "primary",
          "secondary",
          "idle",
          "total",
          "target",
          "extra",
          "global",
          "local",
          "public",
          "private");
  private static final List<String> TAILS =
      List.of("limit", "count", "name", "value", "setting", "email", "id", "url", "ref");
  private static final Map<String, String> ABBREVIATIONS =
      Map.ofEntries(
          Map.entry("database", "db"),
          Map.entry("configuration", "config"),
          Map.entry("request", "req"),
          Map.entry("response", "resp"),
          Map.entry("connection", "conn"),
          Map.entry("certificate", "cert"),
          Map.entry("password", "pwd"),
          Map.entry("memory", "mem"),
          Map.entry("replica", "repl"),
          Map.entry("repository", "repo"),
          Map.entry("threshold", "thresh"),
          Map.entry("interval", "intvl"),
          Map.entry("timeout", "tmo"),
          Map.entry("priority", "prio"),
          Map.entry("environment", "env"),
          Map.entry("partition", "part"),
          Map.entry("snapshot", "snap"),
          Map.entry("retention", "ret"),
          Map.entry("max", "maximum"),
          Map.entry("min", "minimum"));
  private static final Map<String, String> SYNONYMS =
      Map.ofEntries(
          Map.entry("replica", "instance"),
          Map.entry("owner", "maintainer"),
          Map.entry("zone", "location"),
          Map.entry("region", "area"),
          Map.entry("schedule", "cron"),
          Map.entry("host", "server"),
          Map.entry("team", "group"),
          Map.entry("label", "tag"),
          Map.entry("priority", "rank"),
          Map.entry("queue", "backlog"),
          Map.entry("bucket", "container"),
          Map.entry("secret", "credential"),
          Map.entry("budget", "allowance"),
          Map.entry("worker", "executor"));

  private static final Map<String, String> LONGER_WORDS =
      Map.of(
          "port", "portal",
          "mode", "model",
          "route", "router",
          "token", "tokenizer",
          "format", "formatter",
          "version", "versioning",
          "schedule", "scheduler",
          "time", "timestamp");

  /** A unit spelling, its dimension and its size in the dimension's base unit. */
  private record UnitSpelling(String spelling, String dimension, BigDecimal size) {}

  private static final List<UnitSpelling> UNITS =
      List.of(
          unit("Ms", "time", "0.001"),
          unit("Millis", "time", "0.001"),
          unit("Seconds", "time", "1"),
          unit("Sec", "time", "1"),
          unit("Minutes", "time", "60"),
          unit("Hours", "time", "3600"),
          unit("Bytes", "data", "1"),
          unit("KiB", "data", "1024"),
          unit("Mi", "data", "1048576"),
          unit("MiB", "data", "1048576"),
          unit("Gi", "data", "1073741824"),
          unit("MB", "data", "1000000"),
          unit("GB", "data", "1000000000"),
          unit("Percent", "fraction", "0.01"),
          unit("Ratio", "fraction", "1"));

  private final Random random;
  private final long seed;
  private final List<String> parents = new ArrayList<>();
  private final List<Object> hub = new ArrayList<>();
  private final List<Object> spoke = new ArrayList<>();
  private final Set<String> usedNames = new HashSet<>();
  private final Set<Object> touched = new HashSet<>();
  private final Map<RuleKey, Change> expected = new LinkedHashMap<>();
  private final List<Change> applied = new ArrayList<>();

  private GeneratedRenames(long seed) {
    this.seed = seed;
    this.random = new Random(seed);
  }

  static Scenario generate(long seed) {
    return new GeneratedRenames(seed).build();
  }

  private Scenario build() {
    parents.add("");
    int objects = 1 + random.nextInt(2);
    while (parents.size() < 1 + objects) {
      var name = pick(NOUNS) + "Settings";
      if (usedNames.add(name)) {
        parents.add(name);
      }
    }
    for (var parent : parents) {
      int n = parent.isEmpty() ? 8 + random.nextInt(7) : 3 + random.nextInt(4);
      for (int i = 0; i < n; i++) {
        hub.add(newField(parent));
      }
    }
    spoke.addAll(hub);
    int changes = 2 + random.nextInt(5);
    var kinds = Change.values();
    for (int i = 0; i < changes; i++) {
      var kind = kinds[random.nextInt(kinds.length)];
      for (int attempt = 0; attempt < 20; attempt++) {
        var f = (Field) hub.get(random.nextInt(hub.size()));
        if (!touched.contains(f) && apply(kind, f)) {
          touched.add(f);
          applied.add(kind);
          break;
        }
      }
    }
    var target =
        Fixtures.target(
            new VersionSchema("v2", true, true, Fixtures.specSchema(properties(hub))),
            new VersionSchema("v1", true, false, Fixtures.specSchema(properties(spoke))));
    return new Scenario(seed, target, expected, applied);
  }

  private Field newField(String parent) {
    int roll = random.nextInt(100);
    if (roll < 15) {
      var stem = words(1 + random.nextInt(2));
      var u = UNITS.get(random.nextInt(UNITS.size()));
      var f =
          new Field(parent, stem, u.spelling(), random.nextBoolean() ? Type.INTEGER : Type.NUMBER);
      return usedNames.add(f.name()) ? f : newField(parent);
    }
    var type =
        roll < 45
            ? Type.STRING
            : roll < 63
                ? Type.INTEGER
                : roll < 72
                    ? Type.NUMBER
                    : roll < 84 ? Type.BOOLEAN : roll < 92 ? Type.MAP : Type.ARRAY;
    var f = new Field(parent, words(1 + random.nextInt(3)), null, type);
    return usedNames.add(f.name()) ? f : newField(parent);
  }

  private List<String> words(int n) {
    var out = new ArrayList<String>();
    if (n >= 2 && random.nextBoolean()) {
      out.add(pick(QUALIFIERS));
    }
    while (out.size() < n) {
      var w = pick(NOUNS);
      if (!out.contains(w)) {
        out.add(w);
      }
    }
    return out;
  }

  private boolean apply(Change kind, Field f) {
    return switch (kind) {
      case CASE -> caseChange(f);
      case ABBREVIATION -> replaceWord(f, ABBREVIATIONS, Change.ABBREVIATION);
      case REORDER -> {
        if (f.words().size() < 2 || f.unit() != null) {
          yield false;
        }
        var rotated = new ArrayList<>(f.words().subList(1, f.words().size()));
        rotated.add(f.words().getFirst());
        yield renameTo(f, f.named(rotated), Change.REORDER);
      }
      case QUALIFIER -> {
        if (f.unit() != null) {
          yield false;
        }
        var words = new ArrayList<>(f.words());
        if (words.size() >= 2 && random.nextBoolean()) {
          words.removeFirst();
        } else {
          words.add(pick(TAILS));
        }
        yield renameTo(f, f.named(words), Change.QUALIFIER);
      }
      case UNIT -> unitChange(f);
      case MOVE -> {
        // half the moves go into an object the spoke adds, half into one both versions have
        var others = parents.stream().filter(p -> !p.equals(f.parent())).toList();
        var into = random.nextBoolean() ? pick(NOUNS) + "Group" : pick(others);
        if (into.endsWith("Group") && !usedNames.add(into)) {
          yield false;
        }
        var moved = new Field(into, f.words(), f.unit(), f.type());
        replace(f, moved);
        expect(Strategy.FIELD_RENAME, f.path(), moved.path(), null, Change.MOVE);
        yield true;
      }
      case SYNONYM -> replaceWord(f, SYNONYMS, Change.SYNONYM);
      case RETYPE -> retype(f);
      case DURATION -> {
        if (f.type() != Type.STRING || f.unit() != null) {
          yield false;
        }
        var seconds = new Field(f.parent(), f.words(), "Seconds", Type.INTEGER);
        if (!usedNames.add(seconds.name())) {
          yield false;
        }
        replace(f, seconds);
        expect(Strategy.DURATION, f.path(), seconds.path(), null, Change.DURATION);
        yield true;
      }
      case DECOY_UNRELATED -> {
        var words = words(1 + random.nextInt(2));
        if (words.stream().anyMatch(f.words()::contains)) {
          yield false;
        }
        yield swapFor(f, new Field(f.parent(), words, f.unit(), f.type()));
      }
      case DECOY_NEAR -> {
        if (f.words().size() < 2) {
          yield false;
        }
        var words = new ArrayList<>(f.words());
        var other = pick(NOUNS);
        if (words.contains(other)) {
          yield false;
        }
        words.set(random.nextInt(words.size()), other);
        yield swapFor(f, f.named(words));
      }
      case DECOY_EXTENSION -> {
        if (f.unit() != null) {
          yield false;
        }
        var words = new ArrayList<>(f.words());
        words.add(pick(TAILS));
        yield swapFor(f, f.named(words));
      }
      case DECOY_UNIT -> {
        if (f.unit() == null) {
          yield false;
        }
        var words = words(1);
        if (words.stream().anyMatch(f.words()::contains)) {
          yield false;
        }
        yield swapFor(
            f,
            new Field(
                f.parent(), words, UNITS.get(random.nextInt(UNITS.size())).spelling(), f.type()));
      }
      case DECOY_PREFIX -> {
        var words = new ArrayList<>(f.words());
        for (int i = 0; i < words.size(); i++) {
          var longer = LONGER_WORDS.get(words.get(i));
          if (longer != null) {
            words.set(i, longer);
            yield swapFor(f, f.named(words));
          }
        }
        yield false;
      }
      case DECOY_SAME_NAME -> {
        var others = parents.stream().filter(p -> !p.equals(f.parent())).toList();
        spoke.remove(f);
        spoke.add(new Field(pick(others), f.words(), f.unit(), f.type()));
        yield true;
      }
      case REMOVED_AND_ADDED -> {
        spoke.remove(f);
        spoke.add(newField(pick(parents)));
        yield true;
      }
    };
  }

  private boolean caseChange(Field f) {
    var all = new ArrayList<>(f.words());
    if (f.unit() != null) {
      all.add(f.unit().toLowerCase(Locale.ROOT));
    }
    var options = new ArrayList<String>();
    options.add(all.stream().map(GeneratedRenames::capital).collect(Collectors.joining()));
    if (all.size() > 1) {
      options.add(String.join("_", all));
      options.add(String.join("", all));
    }
    var name = options.get(random.nextInt(options.size()));
    if (name.equals(f.name()) || !usedNames.add(name)) {
      return false;
    }
    var v = new Verbatim(f.parent(), name, f.type());
    spoke.set(spoke.indexOf(f), v);
    expect(Strategy.FIELD_RENAME, f.path(), path(v), null, Change.CASE);
    return true;
  }

  private boolean replaceWord(Field f, Map<String, String> table, Change kind) {
    var words = new ArrayList<>(f.words());
    for (int i = 0; i < words.size(); i++) {
      var replacement = table.get(words.get(i));
      if (replacement != null) {
        words.set(i, replacement);
        return renameTo(f, f.named(words), kind);
      }
    }
    return false;
  }

  private boolean unitChange(Field f) {
    if (f.unit() == null) {
      return false;
    }
    var from = UNITS.stream().filter(u -> u.spelling().equals(f.unit())).findFirst().orElseThrow();
    var to =
        UNITS.stream()
            .filter(u -> u.dimension().equals(from.dimension()) && !u.spelling().equals(f.unit()))
            .toList();
    var target = to.get(random.nextInt(to.size()));
    BigDecimal factor;
    try {
      factor = target.size().divide(from.size()); // hub = spoke × factor
    } catch (ArithmeticException nonTerminating) {
      return false; // no exact numericScale exists: not a case with a right answer
    }
    var changed = new Field(f.parent(), f.words(), target.spelling(), f.type());
    if (!usedNames.add(changed.name())) {
      return false;
    }
    replace(f, changed);
    if (factor.compareTo(BigDecimal.ONE) == 0) {
      expect(Strategy.FIELD_RENAME, f.path(), changed.path(), null, Change.UNIT);
    } else {
      expect(Strategy.NUMERIC_SCALE, f.path(), changed.path(), factor, Change.UNIT);
    }
    return true;
  }

  private boolean retype(Field f) {
    if (f.unit() != null) {
      return false;
    }
    var to =
        switch (f.type()) {
          case STRING -> random.nextBoolean() ? Type.INTEGER : Type.BOOLEAN;
          case INTEGER -> random.nextBoolean() ? Type.STRING : Type.NUMBER;
          case NUMBER -> random.nextBoolean() ? Type.STRING : Type.INTEGER;
          case BOOLEAN -> Type.STRING;
          default -> null;
        };
    if (to == null) {
      return false;
    }
    var changed = new Field(f.parent(), f.words(), null, to);
    replace(f, changed);
    expect(Strategy.TYPE_COERCE, f.path(), f.path(), null, Change.RETYPE);
    return true;
  }

  private boolean renameTo(Field f, Field renamed, Change kind) {
    if (renamed.name().equals(f.name()) || !usedNames.add(renamed.name())) {
      return false;
    }
    replace(f, renamed);
    expect(Strategy.FIELD_RENAME, f.path(), renamed.path(), null, kind);
    return true;
  }

  /** A decoy: the field goes, a new one that is not it comes. */
  private boolean swapFor(Field f, Field added) {
    if (!usedNames.add(added.name())) {
      return false;
    }
    replace(f, added);
    return true;
  }

  private void replace(Field old, Object replacement) {
    spoke.set(spoke.indexOf(old), replacement);
  }

  private void expect(
      Strategy strategy, String hubPath, String spokePath, BigDecimal factor, Change kind) {
    expected.put(new RuleKey(strategy, hubPath, spokePath, factor), kind);
  }

  private <T> T pick(List<T> list) {
    return list.get(random.nextInt(list.size()));
  }

  private static String path(Verbatim v) {
    return "spec." + (v.parent().isEmpty() ? "" : v.parent() + ".") + v.name();
  }

  private static String capital(String w) {
    return Character.toUpperCase(w.charAt(0)) + w.substring(1);
  }

  /** The spec properties of a list of fields, as JSON text (YAML reads it). */
  private String properties(List<Object> fields) {
    var root = EngineJson.nodes().objectNode();
    for (var o : fields) {
      String parent;
      String name;
      Type type;
      switch (o) {
        case Field f -> {
          parent = f.parent();
          name = f.name();
          type = f.type();
        }
        case Verbatim v -> {
          parent = v.parent();
          name = v.name();
          type = v.type();
        }
        default -> throw new IllegalStateException(String.valueOf(o));
      }
      if (!parent.isEmpty() && !root.has(parent)) {
        root.putObject(parent).put("type", "object").putObject("properties");
      }
      var at = parent.isEmpty() ? root : (ObjectNode) root.get(parent).get("properties");
      var node = at.putObject(name);
      switch (type) {
        case STRING, INTEGER, NUMBER, BOOLEAN ->
            node.put("type", type.name().toLowerCase(Locale.ROOT));
        case MAP ->
            node.put("type", "object").putObject("additionalProperties").put("type", "string");
        case ARRAY -> node.put("type", "array").putObject("items").put("type", "string");
      }
    }
    return root.toString();
  }

  @Override
  public String toString() {
    return "seed " + seed + ": " + Arrays.toString(applied.toArray());
  }

  private static UnitSpelling unit(String spelling, String dimension, String size) {
    return new UnitSpelling(spelling, dimension, new BigDecimal(size));
  }
}
