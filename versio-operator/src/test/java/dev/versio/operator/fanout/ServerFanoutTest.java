package dev.versio.operator.fanout;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import dev.versio.operator.fanout.ServerFanout.ConfigRef;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class ServerFanoutTest {
  private static final ServerView PRIMARY_DEFAULT = server("primary", true, false);
  private static final ServerView PRIMARY = server("primary", false, false);
  private static final ServerView SECONDARY = server("secondary", false, false);

  private static ServerView server(String name, boolean isDefault, boolean inPool) {
    return new ServerView(name, isDefault, inPool, 1.0);
  }

  private static ServerView member(String name) {
    return new ServerView(name, false, true, 1.0);
  }

  /** 200 configs without webhookServerRef, named u-000…u-199. */
  private static List<ConfigRef> unpinned() {
    return IntStream.range(0, 200)
        .mapToObj(i -> new ConfigRef("u-%03d".formatted(i), null, "t%03d.example.com".formatted(i)))
        .toList();
  }

  /** 50 configs pinned to {@code server}, named p-00…p-49. */
  private static List<ConfigRef> pinnedTo(String server) {
    return IntStream.range(0, 50)
        .mapToObj(
            i -> new ConfigRef("p-%02d".formatted(i), server, "p%02d.example.com".formatted(i)))
        .toList();
  }

  /** 200 on the default server and 50 pinned to secondary. */
  private static List<ConfigRef> cluster() {
    var all = new ArrayList<>(unpinned());
    all.addAll(pinnedTo("secondary"));
    return all;
  }

  private static List<String> names(List<ConfigRef> configs) {
    return configs.stream().map(ConfigRef::name).toList();
  }

  @Test
  void losingDefaultAffectsExactlyTheConfigsThatResolvedToIt() {
    var affected = ServerFanout.affected(cluster(), List.of(SECONDARY), PRIMARY_DEFAULT, PRIMARY);

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void gainingDefaultAffectsWhatNowResolvesToIt() {
    var affected = ServerFanout.affected(cluster(), List.of(SECONDARY), PRIMARY, PRIMARY_DEFAULT);

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void aNewDefaultServerAffectsWhatNowResolvesToIt() {
    var affected = ServerFanout.affected(cluster(), List.of(SECONDARY), null, PRIMARY_DEFAULT);

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void anUpdateThatKeepsTheDefaultAffectsTheConfigsItServes() {
    var affected =
        ServerFanout.affected(cluster(), List.of(SECONDARY), PRIMARY_DEFAULT, PRIMARY_DEFAULT);

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void aPinnedConfigFollowsItsServerAndIgnoresTheDefault() {
    var others = List.of(PRIMARY_DEFAULT);

    var secondaryChanged = ServerFanout.affected(cluster(), others, SECONDARY, SECONDARY);
    var secondaryBecomesDefault =
        ServerFanout.affected(
            pinnedTo("secondary"), List.of(PRIMARY), SECONDARY, server("secondary", true, false));

    assertThat(secondaryChanged).isEqualTo(names(pinnedTo("secondary")));
    assertThat(secondaryBecomesDefault).isEqualTo(names(pinnedTo("secondary")));
  }

  @Test
  void aPinnedConfigIsNotAffectedByTheDefaultServer() {
    var affected =
        ServerFanout.affected(pinnedTo("secondary"), List.of(SECONDARY), PRIMARY_DEFAULT, PRIMARY);

    assertThat(affected).isEmpty();
  }

  @Test
  void creatingTheServerAPinnedConfigNamesAffectsThatConfig() {
    var affected = ServerFanout.affected(cluster(), List.of(PRIMARY_DEFAULT), null, SECONDARY);

    assertThat(affected).isEqualTo(names(pinnedTo("secondary")));
  }

  @Test
  void deletingAServerAffectsWhatItHeld() {
    var deletedSecondary =
        ServerFanout.affected(cluster(), List.of(PRIMARY_DEFAULT), SECONDARY, null);
    var deletedDefault =
        ServerFanout.affected(cluster(), List.of(SECONDARY), PRIMARY_DEFAULT, null);

    assertThat(deletedSecondary).isEqualTo(names(pinnedTo("secondary")));
    assertThat(deletedDefault).isEqualTo(names(unpinned()));
  }

  @Test
  void aSecondDefaultAffectsTheConfigsOfTheFirstBecauseTheyNoLongerResolve() {
    var affected =
        ServerFanout.affected(
            cluster(), List.of(PRIMARY_DEFAULT), SECONDARY, server("secondary", true, false));

    assertThat(affected).isEqualTo(names(cluster()));
  }

  @Test
  void endingADefaultConflictAffectsTheConfigsThatResolveAgain() {
    var affected =
        ServerFanout.affected(
            unpinned(), List.of(PRIMARY_DEFAULT), server("secondary", true, false), SECONDARY);

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void aConfigWithoutTargetIsNeverAffected() {
    var configs = List.of(new ConfigRef("no-target", null, null));

    assertThat(ServerFanout.affected(configs, List.of(), PRIMARY_DEFAULT, null)).isEmpty();
    assertThat(ServerFanout.assignedTo(configs, List.of(PRIMARY_DEFAULT), "primary")).isEmpty();
  }

  @Test
  void aServerJoiningThePoolMovesOnlyTheTargetsItNowWins() {
    var pool = List.of(member("a"), member("b"));
    var joined = member("c");
    var configs = new ArrayList<>(unpinned());
    configs.addAll(pinnedTo("a"));

    var affected = ServerFanout.affected(configs, pool, null, joined);

    var withC = List.of(member("a"), member("b"), joined);
    var wonByC =
        unpinned().stream()
            .filter(c -> AssignmentResolver.resolve(null, c.target(), withC).isTo("c"))
            .map(ConfigRef::name)
            .toList();
    assertThat(wonByC).isNotEmpty().hasSizeLessThan(200);
    assertThat(affected).isEqualTo(wonByC);
    for (var config : unpinned()) {
      if (!wonByC.contains(config.name())) {
        assertThat(AssignmentResolver.resolve(null, config.target(), withC))
            .as("%s stays where it was", config.name())
            .isEqualTo(AssignmentResolver.resolve(null, config.target(), pool));
      }
    }
  }

  @Test
  void aServerLeavingThePoolMovesOnlyTheTargetsItHeld() {
    var pool = List.of(member("a"), member("b"));
    var leaving = member("c");
    var withC = List.of(member("a"), member("b"), leaving);
    var heldByC =
        unpinned().stream()
            .filter(c -> AssignmentResolver.resolve(null, c.target(), withC).isTo("c"))
            .map(ConfigRef::name)
            .toList();

    var affected = ServerFanout.affected(unpinned(), pool, leaving, server("c", false, false));

    assertThat(heldByC).isNotEmpty();
    assertThat(affected).isEqualTo(heldByC);
  }

  @Test
  void theFirstPoolMemberTakesEveryUnpinnedTargetFromTheDefault() {
    var configs = cluster();

    var affected =
        ServerFanout.affected(
            configs,
            List.of(SECONDARY),
            PRIMARY_DEFAULT,
            new ServerView("primary", true, true, 1.0));

    assertThat(affected).isEqualTo(names(unpinned()));
  }

  @Test
  void assignedToListsTheConfigsTheResolverGivesTheServerInInputOrder() {
    var servers = List.of(PRIMARY_DEFAULT, SECONDARY);

    assertThat(ServerFanout.assignedTo(cluster(), servers, "primary")).isEqualTo(names(unpinned()));
    assertThat(ServerFanout.assignedTo(cluster(), servers, "secondary"))
        .isEqualTo(names(pinnedTo("secondary")));
    assertThat(ServerFanout.assignedTo(cluster(), servers, "missing")).isEmpty();
  }
}
