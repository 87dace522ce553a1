package dev.versio.cli.dev;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChildAotCachesTest {
  @TempDir Path dir;

  private Path jar(String name, String content, Instant modified) throws Exception {
    var jar = dir.resolve(name);
    Files.writeString(jar, content);
    Files.setLastModifiedTime(jar, FileTime.from(modified));
    return jar;
  }

  private ChildAotCaches caches(Path... jars) {
    var classPath =
        String.join(
            java.io.File.pathSeparator, java.util.Arrays.stream(jars).map(Path::toString).toList());
    return ChildAotCaches.of(dir.resolve("dev-aot"), "/opt/jdk", "25.0.3+9", classPath)
        .orElseThrow();
  }

  @Test
  void aChildRecordsOnItsFirstStartAndStartsWithTheKeptCacheAfterwards() throws Exception {
    var caches = caches(jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z")));

    var first = caches.use("webhook-server", "100");
    assertThat(first).isInstanceOf(ChildAotCaches.Use.Recording.class);
    var recording = (ChildAotCaches.Use.Recording) first;
    assertThat(first.flags()).containsExactly("-XX:AOTCacheOutput=" + recording.recording());
    Files.writeString(recording.recording(), "cache");

    assertThat(ChildAotCaches.keep(recording, true, cache -> true)).contains(recording.cache());
    var second = caches.use("webhook-server", "200");
    assertThat(second).isEqualTo(new ChildAotCaches.Use.Cached(recording.cache()));
    assertThat(second.flags()).containsExactly("-XX:AOTCache=" + recording.cache());
    assertThat(caches.use("operator", "200"))
        .as("each child has its own cache")
        .isInstanceOf(ChildAotCaches.Use.Recording.class);
  }

  @Test
  void aRecordingOfAJvmThatHadToBeKilledIsDroppedNotKept() throws Exception {
    var caches = caches(jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z")));
    var recording = (ChildAotCaches.Use.Recording) caches.use("operator", "100");
    Files.writeString(recording.recording(), "half written");

    assertThat(ChildAotCaches.keep(recording, false, cache -> true)).isEmpty();

    assertThat(recording.recording()).doesNotExist();
    assertThat(recording.cache()).doesNotExist();
    assertThat(caches.use("operator", "200")).isInstanceOf(ChildAotCaches.Use.Recording.class);
  }

  @Test
  void aRecordingAJvmCannotStartWithIsDroppedAndRecordedAgainNextTime() throws Exception {
    var caches = caches(jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z")));
    var recording = (ChildAotCaches.Use.Recording) caches.use("operator", "100");
    Files.writeString(recording.recording(), "cut short");
    Files.writeString(Path.of(recording.recording() + ".config"), "training");

    assertThat(ChildAotCaches.keep(recording, true, cache -> false)).isEmpty();

    assertThat(recording.recording()).doesNotExist();
    assertThat(Path.of(recording.recording() + ".config")).doesNotExist();
    assertThat(caches.use("operator", "200")).isInstanceOf(ChildAotCaches.Use.Recording.class);
  }

  @Test
  void aRecordingLeftByARunThatIsGoneIsRemovedWhenTheNextOneRecords() throws Exception {
    var caches = caches(jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z")));
    var gone = (ChildAotCaches.Use.Recording) caches.use("operator", "999999999");
    Files.writeString(gone.recording(), "left behind");
    var mine = Long.toString(ProcessHandle.current().pid());
    var running = (ChildAotCaches.Use.Recording) caches.use("webhook-server", mine);
    Files.writeString(running.recording(), "being written");

    caches.use("operator", "100");
    caches.use("webhook-server", "100");

    assertThat(gone.recording()).as("its run is gone").doesNotExist();
    assertThat(running.recording()).as("its run is this JVM, still going").exists();
  }

  @Test
  void otherJvmOptionsFromTheEnvironmentHaveTheirOwnCaches() throws Exception {
    var classPath = jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z")).toString();

    assertThat(ChildAotCaches.of(dir, "/opt/jdk", "25", classPath, "|").orElseThrow().key())
        .isNotEqualTo(
            ChildAotCaches.of(dir, "/opt/jdk", "25", classPath, "-XX:+UseSerialGC|")
                .orElseThrow()
                .key());
  }

  @Test
  void aRebuiltJarRecordsANewCacheAndTheOldBuildsCacheIsRemoved() throws Exception {
    var jar = jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z"));
    var old = caches(jar);
    var recording = (ChildAotCaches.Use.Recording) old.use("operator", "100");
    Files.writeString(recording.recording(), "cache");
    ChildAotCaches.keep(recording, true, cache -> true);

    Files.setLastModifiedTime(jar, FileTime.from(Instant.parse("2026-12-02T00:00:00Z")));
    var rebuilt = caches(jar);

    assertThat(rebuilt.key()).isNotEqualTo(old.key());
    assertThat(rebuilt.use("operator", "200")).isInstanceOf(ChildAotCaches.Use.Recording.class);
    assertThat(recording.cache()).as("valid for no jar any more").doesNotExist();
  }

  @Test
  void anotherJavaRuntimeHasItsOwnCaches() throws Exception {
    var jar = jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z"));
    var classPath = jar.toString();

    assertThat(ChildAotCaches.of(dir, "/opt/jdk", "25.0.3+9", classPath).orElseThrow().key())
        .isNotEqualTo(ChildAotCaches.of(dir, "/opt/jdk", "25.0.4+7", classPath).orElseThrow().key())
        .isNotEqualTo(
            ChildAotCaches.of(dir, "/opt/other-jdk", "25.0.3+9", classPath).orElseThrow().key());
  }

  @Test
  void aClassPathWithAFolderOfClassesGetsNoCacheSinceOnlyJarsCanBeRecorded() throws Exception {
    var classes = Files.createDirectories(dir.resolve("classes"));
    var jar = jar("a.jar", "a", Instant.parse("2026-12-01T00:00:00Z"));

    assertThat(
            ChildAotCaches.of(
                dir, "/opt/jdk", "25.0.3+9", jar + java.io.File.pathSeparator + classes))
        .isEmpty();
  }
}
