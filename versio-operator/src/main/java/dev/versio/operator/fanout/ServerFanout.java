package dev.versio.operator.fanout;

import dev.versio.api.assign.AssignmentResolver;
import dev.versio.api.assign.ServerView;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Which configs a server change concerns: those assigned to it under the old view or the new one
 * (so losing {@code default} still reaches the configs that used to resolve to it), and those whose
 * assignment the change alters elsewhere (a second default leaves the first one's configs
 * unresolved; ending the conflict resolves them again). Pure.
 */
public final class ServerFanout {
  private ServerFanout() {}

  /** What assignment needs of a config. */
  public record ConfigRef(String name, String explicitServer, String target) {
    public ConfigRef {
      Objects.requireNonNull(name, "name");
    }
  }

  /**
   * @param configs every config of one kind
   * @param others every server except the changed one
   * @param before the changed server before the change, or null (created)
   * @param after the changed server after the change, or null (deleted)
   * @return the names of the configs assigned to it under either view or assigned differently under
   *     the two views, in input order
   */
  public static List<String> affected(
      Collection<ConfigRef> configs,
      Collection<ServerView> others,
      ServerView before,
      ServerView after) {
    var name = before != null ? before.name() : Objects.requireNonNull(after, "after").name();
    var oldView = with(others, before);
    var newView = with(others, after);
    var out = new ArrayList<String>();
    for (var config : configs) {
      if (config.target() == null) {
        continue;
      }
      var was = AssignmentResolver.resolve(config.explicitServer(), config.target(), oldView);
      var is = AssignmentResolver.resolve(config.explicitServer(), config.target(), newView);
      if (was.isTo(name) || is.isTo(name) || !was.equals(is)) {
        out.add(config.name());
      }
    }
    return out;
  }

  /** The configs assigned to {@code server} among {@code servers}. */
  public static List<String> assignedTo(
      Collection<ConfigRef> configs, Collection<ServerView> servers, String server) {
    var out = new ArrayList<String>();
    for (var config : configs) {
      if (config.target() != null
          && AssignmentResolver.resolve(config.explicitServer(), config.target(), servers)
              .isTo(server)) {
        out.add(config.name());
      }
    }
    return out;
  }

  private static List<ServerView> with(Collection<ServerView> others, ServerView changed) {
    var all = new ArrayList<>(others);
    if (changed != null) {
      all.add(changed);
    }
    return all;
  }
}
