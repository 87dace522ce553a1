package dev.versio.engine.suggest;

import dev.versio.engine.FieldPath;
import dev.versio.engine.schema.Leaf;
import dev.versio.engine.schema.LeafKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds objects that one version holds as a list of one (generated resources, where every block is
 * a list of at most one): a hub-only and a spoke-only leaf that are the same path once the list
 * levels are left out, and the same shape. The leaves are grouped by the field where their paths
 * first part (the object on one side, the list on the other); a group becomes one singleton rule
 * only when it accounts for every leaf under that field on both sides, so the rule compiles.
 */
final class SingletonWraps {
  private SingletonWraps() {}

  /**
   * What was found.
   *
   * @param rules one rule per field that is an object on one side and a list of one on the other
   * @param hubLeaves the hub-only leaves those rules convert
   * @param spokeLeaves the spoke-only leaves (the lists included) those rules convert
   */
  record Found(List<ProposedRule> rules, List<Leaf> hubLeaves, List<Leaf> spokeLeaves) {}

  /** Where two paths first part, and how many list levels they differ by in all. */
  private record Divergence(FieldPath hub, FieldPath spoke, boolean arrayOnHub, int levels) {}

  private static final class Group {
    final Divergence at;
    final List<Leaf> hub = new ArrayList<>();
    final List<Leaf> spoke = new ArrayList<>();
    boolean nested;

    Group(Divergence at) {
      this.at = at;
    }
  }

  static Found find(
      String hubVersion,
      String version,
      List<Leaf> hubOnly,
      List<Leaf> spokeOnly,
      Map<FieldPath, Leaf> spoke,
      Map<FieldPath, Leaf> hub) {
    var groups = new LinkedHashMap<List<FieldPath>, Group>();
    for (var h : hubOnly) {
      if (h.kind() == LeafKind.ARRAY && h.node().items() != null) {
        continue; // a list level, not a field: it is accounted for with the fields inside it
      }
      var key = withoutLists(h.path());
      for (var s : spokeOnly) {
        if (withoutLists(s.path()).size() != key.size() || !s.shape().equals(h.shape())) {
          continue;
        }
        var d = divergence(h.path(), s.path());
        if (d == null || !sameNames(h.path(), s.path(), d)) {
          continue;
        }
        var g = groups.computeIfAbsent(List.of(d.hub(), d.spoke()), k -> new Group(d));
        g.hub.add(h);
        g.spoke.add(s);
        g.nested |= d.levels() > 1;
      }
    }
    var rules = new ArrayList<ProposedRule>();
    var hubLeaves = new ArrayList<Leaf>();
    var spokeLeaves = new ArrayList<Leaf>();
    for (var g : groups.values()) {
      var hubUnder = under(hubOnly, g.at.hub());
      var spokeUnder = under(spokeOnly, g.at.spoke());
      // every field under the object pairs with one under the list; the rest are list levels
      boolean complete =
          hubUnder.stream().allMatch(l -> g.hub.contains(l) || listLevel(l, g.hub))
              && spokeUnder.stream().allMatch(l -> g.spoke.contains(l) || listLevel(l, g.spoke));
      if (!complete) {
        continue;
      }
      var list = g.at.arrayOnHub() ? hub.get(g.at.hub()) : spoke.get(g.at.spoke());
      rules.add(
          new ProposedRule.Singleton(
              g.at.hub().toString(),
              g.at.spoke().toString(),
              g.at.arrayOnHub(),
              g.nested,
              reason(g, list, hubVersion, version)));
      hubLeaves.addAll(hubUnder);
      spokeLeaves.addAll(spokeUnder);
    }
    return new Found(rules, hubLeaves, spokeLeaves);
  }

  private static String reason(Group g, Leaf list, String hubVersion, String version) {
    var listVersion = g.at.arrayOnHub() ? hubVersion : version;
    var objectVersion = g.at.arrayOnHub() ? version : hubVersion;
    var text =
        new StringBuilder()
            .append(g.at.arrayOnHub() ? g.at.hub() : g.at.spoke())
            .append(" is a list of one in ")
            .append(listVersion)
            .append(" and an object in ")
            .append(objectVersion);
    if (!g.at.hub().equals(g.at.spoke())) {
      text.append(" (").append(g.at.arrayOnHub() ? g.at.spoke() : g.at.hub()).append(')');
    }
    if (g.nested) {
      text.append(", with lists of one inside it too (nested)");
    }
    var maxItems = list == null ? null : list.node().maxItems();
    if (maxItems == null || maxItems > 1) {
      text.append(
          "; "
              + listVersion
              + " declares no maxItems of 1, so only the first element converts: acknowledge that"
              + " with a reason");
    }
    return text.toString();
  }

  /** The leaves at or below {@code path}. */
  private static List<Leaf> under(List<Leaf> leaves, FieldPath path) {
    return leaves.stream().filter(l -> l.path().startsWith(path)).toList();
  }

  /** Whether {@code leaf} is a list that a paired field's path goes through. */
  private static boolean listLevel(Leaf leaf, List<Leaf> paired) {
    return leaf.kind() == LeafKind.ARRAY
        && paired.stream()
            .anyMatch(
                p ->
                    p.path().startsWith(leaf.path().child(FieldPath.ITEMS))
                        || p.path().equals(leaf.path()));
  }

  /**
   * Whether the two paths name the same fields, but for the field where they part, which may be
   * named in the singular on one side ({@code listeners} and {@code listener}).
   */
  private static boolean sameNames(FieldPath hub, FieldPath spoke, Divergence d) {
    var h = withoutLists(hub);
    var s = withoutLists(spoke);
    int at = withoutLists(d.hub()).size() - 1;
    for (int i = 0; i < h.size(); i++) {
      if (!h.get(i).equals(s.get(i))
          && (i != at || !singular(h.get(i)).equals(singular(s.get(i))))) {
        return false;
      }
    }
    return true;
  }

  private static String singular(String name) {
    return name.length() > 3 && name.endsWith("s") ? name.substring(0, name.length() - 1) : name;
  }

  private static List<String> withoutLists(FieldPath path) {
    return path.segments().stream().filter(s -> !s.equals(FieldPath.ITEMS)).toList();
  }

  /**
   * Where the two paths (the same once lists are left out) first differ by a list level: the field
   * there on both sides (the list's own path on the side that has it), or null when they do not.
   */
  private static Divergence divergence(FieldPath hub, FieldPath spoke) {
    var h = hub.segments();
    var s = spoke.segments();
    int i = 0;
    int j = 0;
    Divergence first = null;
    int levels = 0;
    while (i < h.size() || j < s.size()) {
      boolean hubList = i < h.size() && h.get(i).equals(FieldPath.ITEMS);
      boolean spokeList = j < s.size() && s.get(j).equals(FieldPath.ITEMS);
      if (hubList == spokeList) {
        i++;
        j++;
        continue;
      }
      if (first == null) {
        first =
            new Divergence(
                new FieldPath(h.subList(0, i)), new FieldPath(s.subList(0, j)), hubList, 0);
      }
      levels++;
      if (hubList) {
        i++;
      } else {
        j++;
      }
    }
    return first == null || first.hub().isRoot() || first.spoke().isRoot()
        ? null
        : new Divergence(first.hub(), first.spoke(), first.arrayOnHub(), levels);
  }
}
