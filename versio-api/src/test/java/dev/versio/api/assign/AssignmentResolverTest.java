package dev.versio.api.assign;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AssignmentResolverTest {
  private static ServerView server(String name) {
    return new ServerView(name, false, false, 1);
  }

  private static ServerView pooled(String name) {
    return new ServerView(name, false, true, 1);
  }

  @Test
  void anExplicitReferenceWinsOverThePoolAndTheDefault() {
    var servers = List.of(new ServerView("main", true, true, 1), pooled("b"), server("pinned"));
    assertThat(AssignmentResolver.resolve("pinned", "widgets.example.com", servers))
        .isEqualTo(new Assignment.Assigned("pinned", Assignment.Route.EXPLICIT));
  }

  @Test
  void anExplicitReferenceToAMissingServerIsUnresolvedWithAFix() {
    assertThat(AssignmentResolver.resolve("ghost", "t", List.of(server("main"))))
        .isInstanceOfSatisfying(
            Assignment.Unresolved.class,
            u -> assertThat(u.reason()).contains("'ghost'").contains("create it"));
  }

  @Test
  void withoutAPoolTheSingleDefaultServes() {
    var servers = List.of(new ServerView("main", true, false, 1), server("other"));
    assertThat(AssignmentResolver.resolve(null, "t", servers))
        .isEqualTo(new Assignment.Assigned("main", Assignment.Route.DEFAULT));
  }

  @Test
  void noDefaultOrSeveralDefaultsAreUnresolvedAndNeverGuessed() {
    assertThat(AssignmentResolver.resolve(null, "t", List.of(server("a"))))
        .isInstanceOfSatisfying(
            Assignment.Unresolved.class,
            u -> assertThat(u.reason()).contains("no ConversionWebhookServer is marked default"));
    var two = List.of(new ServerView("b", true, false, 1), new ServerView("a", true, false, 1));
    assertThat(AssignmentResolver.resolve(null, "t", two))
        .isInstanceOfSatisfying(
            Assignment.Unresolved.class, u -> assertThat(u.reason()).contains("(a, b)"));
  }

  @Test
  void rendezvousScoresArePinnedByGoldenVectors() {
    // Any change here moves targets between servers in running clusters: never change these
    // values. They were cross-checked with an independent implementation of the documented formula.
    assertThat(AssignmentResolver.score("server-a", "widgets.example.com", 1.0))
        .isEqualTo(0.3550331001841062);
    var servers = List.of(pooled("a"), pooled("b"), pooled("c"));
    assertThat(List.of("t0", "t1", "t2", "t3", "t4", "t5", "widgets.example.com"))
        .extracting(
            t -> ((Assignment.Assigned) AssignmentResolver.resolve(null, t, servers)).server())
        .containsExactly("b", "c", "c", "b", "a", "c", "c");
  }

  @Test
  void addingAServerMovesOnlyTargetsOntoItAndAboutOneInNPlusOne() {
    var before = List.of(pooled("s1"), pooled("s2"), pooled("s3"), pooled("s4"));
    var after = new ArrayList<>(before);
    after.add(pooled("s5"));
    int targets = 5000;
    int moved = 0;
    for (int i = 0; i < targets; i++) {
      var target = "target-" + i + ".example.com";
      var was = ((Assignment.Assigned) AssignmentResolver.resolve(null, target, before)).server();
      var now = ((Assignment.Assigned) AssignmentResolver.resolve(null, target, after)).server();
      if (!was.equals(now)) {
        assertThat(now).as("a moved target can only move onto the new server").isEqualTo("s5");
        moved++;
      }
    }
    assertThat((double) moved / targets)
        .isLessThanOrEqualTo(1.0 / 5 + 0.02)
        .isGreaterThan(1.0 / 5 - 0.02);
  }

  @Test
  void removingAServerMovesOnlyItsTargets() {
    var all = List.of(pooled("s1"), pooled("s2"), pooled("s3"));
    var without = List.of(pooled("s1"), pooled("s3"));
    for (int i = 0; i < 2000; i++) {
      var target = "t" + i;
      var was = ((Assignment.Assigned) AssignmentResolver.resolve(null, target, all)).server();
      var now = ((Assignment.Assigned) AssignmentResolver.resolve(null, target, without)).server();
      if (!was.equals("s2")) {
        assertThat(now).isEqualTo(was);
      }
    }
  }

  @Test
  void weightsBiasTheShareOfTargets() {
    var servers =
        List.of(new ServerView("heavy", false, true, 3), new ServerView("light", false, true, 1));
    Map<String, Integer> counts = new HashMap<>();
    for (int i = 0; i < 4000; i++) {
      counts.merge(
          ((Assignment.Assigned) AssignmentResolver.resolve(null, "t" + i, servers)).server(),
          1,
          Integer::sum);
    }
    assertThat(counts.get("heavy") / 4000.0).isBetween(0.72, 0.78);
  }
}
