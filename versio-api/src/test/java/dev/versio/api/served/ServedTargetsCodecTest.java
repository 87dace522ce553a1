package dev.versio.api.served;

import static org.assertj.core.api.Assertions.assertThat;

import dev.versio.api.served.ServedTargetsCodec.Decoded;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;

class ServedTargetsCodecTest {
  /** {@code n} CRD-like names with random parts, so gzip cannot shrink them to nothing. */
  private static TreeSet<String> targets(int n, long seed) {
    var random = new Random(seed);
    var out = new TreeSet<String>();
    while (out.size() < n) {
      out.add(String.format("r%08xs.team-%d.example.com", random.nextInt(), random.nextInt(500)));
    }
    return out;
  }

  private static Decoded roundTrip(java.util.Collection<String> targets) {
    return ServedTargetsCodec.decode(ServedTargetsCodec.encode(targets));
  }

  @Test
  void aSetReadsBackAsTheSameSortedSet() {
    var decoded = roundTrip(List.of("widgets.example.com", "caches.example.com"));
    assertThat(decoded)
        .isEqualTo(
            new Decoded.Readable(
                new TreeSet<>(List.of("caches.example.com", "widgets.example.com"))));
  }

  @Test
  void anEmptySetIsReadableAndEmptyNotUnreadable() {
    assertThat(roundTrip(List.of())).isEqualTo(new Decoded.Readable(new TreeSet<>()));
  }

  @Test
  void aHundredThousandTargetsSpreadOverSeveralPartsAndReadBackIdentical() {
    var many = targets(100_000, 1);
    var parts = ServedTargetsCodec.encode(many);

    assertThat(parts).hasSizeGreaterThan(1);
    assertThat(parts)
        .allSatisfy(
            p -> {
              assertThat(p.get(ServedTargetsCodec.TARGETS).length())
                  .isLessThanOrEqualTo(ServedTargetsCodec.MAX_ENCODED);
              assertThat(p.values().stream().mapToInt(String::length).sum())
                  .as("all annotations of a Lease fit the apiserver's 256 KiB")
                  .isLessThan(256 * 1024);
            });
    var shuffled = new ArrayList<>(parts);
    Collections.shuffle(shuffled, new Random(2));
    assertThat(ServedTargetsCodec.decode(shuffled)).isEqualTo(new Decoded.Readable(many));
  }

  @Test
  void aMissingPartIsUnreadableNeverASmallerSet() {
    var parts = new ArrayList<>(ServedTargetsCodec.encode(targets(100_000, 3)));
    parts.remove(1);

    assertThat(ServedTargetsCodec.decode(parts))
        .isInstanceOfSatisfying(
            Decoded.Unreadable.class, u -> assertThat(u.reason()).contains("parts are present"));
  }

  @Test
  void partsOfTwoPublicationsMixedAreUnreadable() {
    var before = ServedTargetsCodec.encode(targets(100_000, 4));
    var after = ServedTargetsCodec.encode(targets(100_000, 5));
    var mixed = new ArrayList<>(before);
    mixed.set(0, after.get(0));

    assertThat(ServedTargetsCodec.decode(mixed)).isInstanceOf(Decoded.Unreadable.class);
  }

  @Test
  void aCorruptedAnnotationIsUnreadableNeverEmpty() {
    var part = new HashMap<>(ServedTargetsCodec.encode(List.of("a.example.com")).getFirst());
    part.put(ServedTargetsCodec.TARGETS, "not base64 at all!");
    assertThat(ServedTargetsCodec.decode(List.of(part))).isInstanceOf(Decoded.Unreadable.class);

    part.put(ServedTargetsCodec.TARGETS, Base64.getEncoder().encodeToString(new byte[] {1, 2, 3}));
    assertThat(ServedTargetsCodec.decode(List.of(part))).isInstanceOf(Decoded.Unreadable.class);

    var truncated = new HashMap<>(ServedTargetsCodec.encode(List.of("a.example.com")).getFirst());
    var text = truncated.get(ServedTargetsCodec.TARGETS);
    truncated.put(ServedTargetsCodec.TARGETS, text.substring(0, text.length() - 8));
    assertThat(ServedTargetsCodec.decode(List.of(truncated)))
        .isInstanceOf(Decoded.Unreadable.class);
  }

  @Test
  void aTamperedListThatStillDecodesFailsItsDigestAndCount() throws Exception {
    var part = new HashMap<>(ServedTargetsCodec.encode(List.of("a.example.com")).getFirst());
    part.put(ServedTargetsCodec.TARGETS, gzipBase64("b.example.com".getBytes()));
    assertThat(ServedTargetsCodec.decode(List.of(part)))
        .isInstanceOfSatisfying(
            Decoded.Unreadable.class, u -> assertThat(u.reason()).contains("digest"));

    part.put(ServedTargetsCodec.TARGETS, gzipBase64("a.example.com\nb.example.com".getBytes()));
    assertThat(ServedTargetsCodec.decode(List.of(part)))
        .isInstanceOfSatisfying(
            Decoded.Unreadable.class, u -> assertThat(u.reason()).contains("count"));
  }

  @Test
  void aPartThatDecodesToMoreThanTheLimitIsUnreadable() throws Exception {
    var part = new HashMap<>(ServedTargetsCodec.encode(List.of("a.example.com")).getFirst());
    part.put(ServedTargetsCodec.TARGETS, gzipBase64(new byte[ServedTargetsCodec.MAX_DECODED + 1]));

    assertThat(ServedTargetsCodec.decode(List.of(part)))
        .isInstanceOfSatisfying(
            Decoded.Unreadable.class, u -> assertThat(u.reason()).contains("more than"));
  }

  @Test
  void noPartsOrAPartWithoutItsNumberIsUnreadable() {
    assertThat(ServedTargetsCodec.decode(List.of())).isInstanceOf(Decoded.Unreadable.class);
    assertThat(ServedTargetsCodec.decode(List.of(Map.of(ServedTargetsCodec.TARGETS, ""))))
        .isInstanceOf(Decoded.Unreadable.class);
  }

  private static String gzipBase64(byte[] data) throws Exception {
    var bytes = new ByteArrayOutputStream();
    try (var gzip = new GZIPOutputStream(bytes)) {
      gzip.write(data);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }
}
