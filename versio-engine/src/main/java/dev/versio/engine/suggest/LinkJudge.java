package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.Leaf;
import dev.versio.engine.schema.LeafKind;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Decides whether a hub-only and a spoke-only leaf could be one field, and by which rule.
 *
 * <ul>
 *   <li>Same name and type in another place, where the parent it left is gone, the one it joined is
 *       new, or the two are named alike: a move ({@code FieldRename}); between two parents both
 *       versions have, the move is only offered.
 *   <li>Same parent, same type, same words ({@code maxSurge}, {@code max_surge}, {@code
 *       maxSurgeCount}/{@code maxSurgeCnt}) and the same unit or none: a {@code FieldRename}.
 *   <li>Same parent, same words, both numbers, units of one dimension ({@code timeoutMs}, {@code
 *       timeoutSec}): a {@code NumericScale} whose factor converts the units.
 *   <li>Same parent, same words, a string and an integer counting seconds or milli-units: a {@code
 *       Duration} or a {@code Quantity}.
 *   <li>Same parent and type, but only some words shared ({@code burstLimit}, {@code burst}), or a
 *       unit on one side only ({@code ttl}, {@code ttlSeconds}): a rename for the author to
 *       confirm, never written as a rule.
 * </ul>
 *
 * Anything else, however alike the types, is no link: names that share no word are never paired.
 */
final class LinkJudge {
  /** The least {@link NameSimilarity} for a rename the author is asked to confirm. */
  static final double PARTIAL = 0.6;

  private final String hubVersion;
  private final String spokeVersion;
  private final Map<FieldPath, Leaf> hubLeaves;
  private final Map<FieldPath, Leaf> spokeLeaves;
  private final Map<Leaf, List<String>> signatures = new IdentityHashMap<>(); // arrays only

  LinkJudge(
      String hubVersion,
      String spokeVersion,
      Map<FieldPath, Leaf> hubLeaves,
      Map<FieldPath, Leaf> spokeLeaves) {
    this.hubVersion = hubVersion;
    this.spokeVersion = spokeVersion;
    this.hubLeaves = hubLeaves;
    this.spokeLeaves = spokeLeaves;
  }

  Optional<Link> judge(Leaf h, Leaf s) {
    if (!itemsPrefix(h.path()).equals(itemsPrefix(s.path()))) {
      return Optional.empty(); // inside different lists: no ForEach holds both
    }
    var hubPath = h.path().toString();
    var spokePath = s.path().toString();
    if (!h.path().parent().equals(s.path().parent())) {
      if (h.path().last().equals(s.path().last()) && sameType(h, s)) {
        return Optional.of(move(h, s));
      }
      return folded(h, s);
    }
    boolean sameType = sameType(h, s);
    var hn = FieldName.of(h.path().last());
    var sn = FieldName.of(s.path().last());
    if (sameType && hn.key().equals(sn.key())) {
      return confident(
          h,
          s,
          new ProposedRule.Rename(
              hubPath,
              spokePath,
              "same name but for case and separators, same parent and type ("
                  + h.describe()
                  + ")"));
    }
    double similarity = NameSimilarity.of(hn, sn);
    boolean sameWords = similarity >= 1.0;
    var hu = hn.unit();
    var su = sn.unit();
    if (sameType && hu.equals(su)) {
      if (sameWords) {
        return confident(
            h,
            s,
            new ProposedRule.Rename(
                hubPath,
                spokePath,
                "same words ("
                    + String.join(" ", hn.stem())
                    + "), same parent and type ("
                    + h.describe()
                    + ")"));
      }
      if (similarity >= PARTIAL) {
        return Optional.of(
            new Link(
                h,
                s,
                similarity,
                new ProposedRule.Rename(
                    hubPath,
                    spokePath,
                    h.path().last()
                        + " and "
                        + s.path().last()
                        + " share some words ("
                        + String.join(" ", shared(hn, sn))
                        + ") but not all; same parent and type ("
                        + h.describe()
                        + ")"),
                false));
      }
      return Optional.empty();
    }
    if (!sameWords) {
      return Optional.empty();
    }
    var hk = plainScalar(h);
    var sk = plainScalar(s);
    if (hu.isPresent() && su.isPresent() && numeric(hk) && numeric(sk)) {
      return hu.get()
          .factorTo(su.get())
          .flatMap(factor -> confident(h, s, scale(h, s, hu.get(), su.get(), factor)));
    }
    if (sameType && hu.isPresent() != su.isPresent()) {
      var unitless = hu.isPresent() ? s : h;
      var unit = hu.orElseGet(su::get).label();
      return Optional.of(
          new Link(
              h,
              s,
              0.9,
              new ProposedRule.Rename(
                  hubPath,
                  spokePath,
                  unitless.path().last()
                      + " names no unit and "
                      + (hu.isPresent() ? h : s).path().last()
                      + " counts "
                      + unit
                      + ": a FieldRename if "
                      + unitless.path().last()
                      + " already counted "
                      + unit
                      + ", else a NumericScale"),
              false));
    }
    return textAndInteger(h, s, hk, sk, hu, su);
  }

  /**
   * The same name in another place. Confident when the structure around it changed too: the parent
   * it left is gone from the spoke ({@code spec.tls.enabled} → {@code spec.enabled}), the parent it
   * joined is new in the spoke, or the two parents are named alike ({@code spec.tls}, {@code
   * spec.tlsConfig}). Between two parents both versions have, a common name ({@code enabled}) may
   * well be another field, so the move is only offered.
   */
  private Link move(Leaf h, Leaf s) {
    var hp = h.path().parent();
    var sp = s.path().parent();
    boolean restructured =
        !holdsAny(spokeLeaves, hp)
            || !holdsAny(hubLeaves, sp)
            || (!hp.isRoot()
                && !sp.isRoot()
                && NameSimilarity.of(FieldName.of(hp.last()), FieldName.of(sp.last())) >= PARTIAL);
    var reason = "same name and type (" + h.describe() + "), different place";
    if (restructured) {
      return new Link(
          h,
          s,
          1.0,
          new ProposedRule.Rename(h.path().toString(), s.path().toString(), reason),
          true);
    }
    return new Link(
        h,
        s,
        0.9,
        new ProposedRule.Rename(
            h.path().toString(),
            s.path().toString(),
            reason + ", between parents both versions have (" + hp + ", " + sp + ")"),
        false);
  }

  /**
   * A field moved out of (or into) an object and named after it: {@code timeouts.request} and
   * {@code requestTimeout} hold the same words, one level apart, with the same type. Confident when
   * the object exists on one side only, else only offered.
   */
  private Optional<Link> folded(Leaf h, Leaf s) {
    var hp = h.path().parent();
    var sp = s.path().parent();
    Leaf nested;
    Leaf flat;
    if (!hp.isRoot() && hp.parent().equals(sp)) {
      nested = h;
      flat = s;
    } else if (!sp.isRoot() && sp.parent().equals(hp)) {
      nested = s;
      flat = h;
    } else {
      return Optional.empty();
    }
    if (!sameType(h, s)
        || !FieldName.of(h.path().last()).unit().equals(FieldName.of(s.path().last()).unit())) {
      return Optional.empty();
    }
    var object = nested.path().parent();
    var joined = new ArrayList<String>(words(object.last()));
    joined.addAll(words(nested.path().last()));
    var flatWords = words(flat.path().last());
    if (!sorted(joined).equals(sorted(flatWords))) {
      return Optional.empty();
    }
    boolean objectOnOneSide =
        nested == h ? !holdsAny(spokeLeaves, object) : !holdsAny(hubLeaves, object);
    // an object that holds nothing else is a wrapper: ObjectToScalar says so better
    var side = nested == h ? hubLeaves : spokeLeaves;
    boolean alone =
        side.keySet().stream().filter(p -> p.startsWith(object) && !p.equals(object)).count() == 1;
    var reason =
        "the same words ("
            + String.join(" ", flatWords)
            + ") one level apart: "
            + nested.path().last()
            + (nested == h ? " moved into " : " moved out of ")
            + object.last()
            + ", same type ("
            + h.describe()
            + ")"
            + (alone
                ? "; "
                    + object.last()
                    + " holds nothing else, so an ObjectToScalar with key "
                    + nested.path().last()
                    + " may say it better"
                : "");
    boolean confident = objectOnOneSide && !alone;
    return Optional.of(
        new Link(
            h,
            s,
            confident ? 1.0 : 0.9,
            new ProposedRule.Rename(h.path().toString(), s.path().toString(), reason),
            confident));
  }

  /**
   * The words of a name, each cut to a rough stem so that inflections meet: a plural ({@code
   * timeouts}), a gerund ({@code scaling}) and a final e ({@code scale}).
   */
  private static List<String> words(String name) {
    var out = new ArrayList<String>();
    for (var word : FieldName.of(name).stem()) {
      var stem = word;
      if (stem.length() > 5 && stem.endsWith("ing")) {
        stem = stem.substring(0, stem.length() - 3);
      } else if (stem.length() > 3 && stem.endsWith("s") && !stem.endsWith("ss")) {
        stem = stem.substring(0, stem.length() - 1);
      }
      if (stem.length() > 3 && stem.endsWith("e")) {
        stem = stem.substring(0, stem.length() - 1);
      }
      out.add(stem);
    }
    return out;
  }

  private static List<String> sorted(List<String> words) {
    return words.stream().sorted().toList();
  }

  /** The path up to and including its last list level ({@code spec.rules[]}), or the root. */
  private static List<String> itemsPrefix(FieldPath path) {
    int last = path.segments().lastIndexOf(FieldPath.ITEMS);
    return last < 0 ? List.of() : path.segments().subList(0, last + 1);
  }

  private static boolean holdsAny(Map<FieldPath, Leaf> leaves, FieldPath parent) {
    return leaves.keySet().stream().anyMatch(p -> p.startsWith(parent) && !p.equals(parent));
  }

  /** Duration (seconds) or Quantity (milli-units): one side text without a unit. */
  private Optional<Link> textAndInteger(
      Leaf h, Leaf s, LeafKind hk, LeafKind sk, Optional<Unit> hu, Optional<Unit> su) {
    boolean hubIsText = hk == LeafKind.STRING && sk == LeafKind.INTEGER && hu.isEmpty();
    boolean spokeIsText = sk == LeafKind.STRING && hk == LeafKind.INTEGER && su.isEmpty();
    if (!hubIsText && !spokeIsText) {
      return Optional.empty();
    }
    var text = hubIsText ? h : s;
    var integer = hubIsText ? s : h;
    var unit = (hubIsText ? su : hu).orElse(null);
    var where =
        text.path().last()
            + " is a string in "
            + (hubIsText ? hubVersion : spokeVersion)
            + ", "
            + integer.path().last()
            + " an integer in "
            + (hubIsText ? spokeVersion : hubVersion);
    var hubPath = h.path().toString();
    var spokePath = s.path().toString();
    if (unit == Unit.SECONDS) {
      return confident(
          h,
          s,
          new ProposedRule.Duration(
              hubPath,
              spokePath,
              where
                  + " counting seconds: Go duration text and whole seconds; text read as"
                  + " seconds loses its spelling (90m comes back as 1h30m0s): acknowledge that"
                  + " with a reason"));
    }
    if (unit == Unit.MILLI || unit == Unit.MILLICORES) {
      return confident(
          h,
          s,
          new ProposedRule.Quantity(
              hubPath,
              spokePath,
              where
                  + " counting milli-units: a Kubernetes quantity and its milli-units; text"
                  + " read as a number loses its spelling (1Gi comes back as 1073741824):"
                  + " acknowledge that with a reason"));
    }
    return Optional.empty();
  }

  private ProposedRule.Scale scale(Leaf h, Leaf s, Unit hu, Unit su, BigDecimal factor) {
    var reason =
        new StringBuilder()
            .append("same words, both numbers: ")
            .append(h.path().last())
            .append(" counts ")
            .append(hu.label())
            .append(" in ")
            .append(hubVersion)
            .append(", ")
            .append(s.path().last())
            .append(" counts ")
            .append(su.label())
            .append(" in ")
            .append(spokeVersion)
            .append(", so hub = spoke × ")
            .append(factor.toPlainString());
    if (h.kind() == LeafKind.INTEGER || s.kind() == LeafKind.INTEGER) {
      reason.append("; an integer side may not hold every scaled value: see versio analyze");
    }
    return new ProposedRule.Scale(
        h.path().toString(), s.path().toString(), factor, reason.toString());
  }

  private Optional<Link> confident(Leaf h, Leaf s, ProposedRule rule) {
    return Optional.of(new Link(h, s, 1.0, rule, true));
  }

  /** Same shape, and for arrays the same item fields. */
  private boolean sameType(Leaf h, Leaf s) {
    return h.shape().equals(s.shape())
        && (h.kind() != LeafKind.ARRAY
            || signatures
                .computeIfAbsent(h, l -> signature(l, hubLeaves))
                .equals(signatures.computeIfAbsent(s, l -> signature(l, spokeLeaves))));
  }

  /** The shapes of everything below a leaf (an array's item fields), relative to it. */
  private static List<String> signature(Leaf leaf, Map<FieldPath, Leaf> all) {
    var out = new ArrayList<String>();
    all.forEach(
        (path, l) -> {
          if (path.startsWith(leaf.path()) && !path.equals(leaf.path())) {
            out.add(
                String.join(".", path.segments().subList(leaf.path().size(), path.size()))
                    + "="
                    + l.shape());
          }
        });
    out.sort(null);
    return out;
  }

  /** The leaf's kind when it is a scalar that holds any value of it (no enum), else null. */
  private static LeafKind plainScalar(Leaf leaf) {
    var node = leaf.node();
    return leaf.kind().isScalar()
            && !leaf.opaque()
            && node.enumValues().isEmpty()
            && !node.intOrString()
        ? leaf.kind()
        : null;
  }

  private static boolean numeric(LeafKind kind) {
    return kind == LeafKind.INTEGER || kind == LeafKind.NUMBER;
  }

  private static List<String> shared(FieldName a, FieldName b) {
    var out = new ArrayList<String>();
    var rest = new ArrayList<>(b.stem());
    for (var word : a.stem()) {
      for (var other : rest) {
        if (NameSimilarity.sameWord(word, other)) {
          out.add(word);
          rest.remove(other);
          break;
        }
      }
    }
    return out;
  }
}
