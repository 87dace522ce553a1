package dev.versio.webhook.sync;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.engine.compile.CompiledConfig;
import dev.versio.engine.route.Router;
import dev.versio.webhook.registry.RegistryEntry;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TargetClaimsTest {
  private static final Router ROUTER =
      new Router(new CompiledConfig("CRD t", "v2", Map.of(), List.of()), "example.com");

  private static Optional<RegistryEntry> servable(ConfigKey key, String target) {
    return Optional.of(
        new RegistryEntry(
            target, Optional.of(ROUTER), key.toString(), "gen=1/1", Instant.EPOCH, null, null));
  }

  private static Optional<RegistryEntry> failed(ConfigKey key, String target) {
    return Optional.of(
        new RegistryEntry(
            target, Optional.empty(), key.toString(), null, null, "boom", Instant.EPOCH));
  }

  private final ConfigKey a = new ConfigKey(false, "a");
  private final ConfigKey b = new ConfigKey(false, "b");

  @Test
  void theWinnerIsTheSameWhicheverConfigArrivesFirst() {
    var one = new TargetClaims();
    one.update(a, servable(a, "t.io"));
    one.update(b, servable(b, "t.io"));
    var other = new TargetClaims();
    other.update(b, servable(b, "t.io"));
    other.update(a, servable(a, "t.io"));

    assertThat(one.winner("t.io").orElseThrow().config()).isEqualTo("crd/a");
    assertThat(other.winner("t.io").orElseThrow().config()).isEqualTo("crd/a");
  }

  @Test
  void aServableClaimWinsOverAFailedOneWhateverItsName() {
    var claims = new TargetClaims();
    claims.update(a, failed(a, "t.io"));
    claims.update(b, servable(b, "t.io"));

    assertThat(claims.winner("t.io").orElseThrow().config()).isEqualTo("crd/b");
  }

  @Test
  void removingOneOfTwoClaimsKeepsTheTargetWithTheOther() {
    var claims = new TargetClaims();
    claims.update(a, servable(a, "t.io"));
    claims.update(b, servable(b, "t.io"));

    assertThat(claims.update(a, Optional.empty())).containsExactly("t.io");
    assertThat(claims.winner("t.io").orElseThrow().config()).isEqualTo("crd/b");
    assertThat(claims.update(b, Optional.empty())).containsExactly("t.io");
    assertThat(claims.winner("t.io")).isEmpty();
  }

  @Test
  void aConfigThatChangesItsTargetAffectsBothTargets() {
    var claims = new TargetClaims();
    claims.update(a, servable(a, "old.io"));

    assertThat(claims.update(a, servable(a, "new.io"))).containsExactly("old.io", "new.io");
    assertThat(claims.winner("old.io")).isEmpty();
    assertThat(claims.targetOf(a)).contains("new.io");
  }
}
