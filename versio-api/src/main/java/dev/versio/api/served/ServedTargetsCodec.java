package dev.versio.api.served;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.zip.GZIPInputStream;
import java.util.zip.GZIPOutputStream;

/**
 * The set of targets a replica serves, written into the annotations of one or more Leases and read
 * back. Each part holds a run of the sorted names, newline-separated, gzip-compressed and base64
 * encoded in {@value #TARGETS}; every part also carries the part number, the total count and a
 * SHA-256 digest of the whole set, so a reader can tell a complete, consistent set from a torn or
 * corrupted one. A set too large for one Lease is spread over as many parts as needed; nothing is
 * ever truncated. Reading checks sizes both compressed and decoded and answers {@link
 * Decoded.Unreadable} — never an empty set — for anything it cannot trust.
 */
public final class ServedTargetsCodec {
  /** The label naming the ConversionWebhookServer a replica belongs to. */
  public static final String SERVER_LABEL = "versio.dev/served-by-server";

  /** The label naming the replica, the same on every part. */
  public static final String REPLICA_LABEL = "versio.dev/served-by-replica";

  /** Annotation keys. */
  public static final String TARGETS = "versio.dev/served-targets";

  public static final String PART = "versio.dev/served-targets-part";
  public static final String COUNT = "versio.dev/served-targets-count";
  public static final String DIGEST = "versio.dev/served-targets-sha256";

  /**
   * On part 0 of a replica that takes reviews forwarded from the other replicas behind the front:
   * the {@code host:port} of its conversion listener as its peers reach it. A replica without it
   * neither forwards nor is forwarded to.
   */
  public static final String PEER_ADDRESS = "versio.dev/peer-address";

  /**
   * The most base64 characters one part holds: the apiserver caps all annotations of an object at
   * 256 KiB together, and the other annotations and labels need room.
   */
  public static final int MAX_ENCODED = 200_000;

  /** The most bytes one part may decode to (a guard against a compressed bomb). */
  public static final int MAX_DECODED = 16 << 20;

  private ServedTargetsCodec() {}

  /** What a reader made of a replica's parts. */
  public sealed interface Decoded {
    /** The complete set. */
    record Readable(SortedSet<String> targets) implements Decoded {
      public Readable {
        targets = java.util.Collections.unmodifiableSortedSet(new TreeSet<>(targets));
      }
    }

    /** The parts cannot be trusted; {@code reason} says why. */
    record Unreadable(String reason) implements Decoded {}
  }

  /** Encodes {@code targets} into the annotations of each part, part 0 first. */
  public static List<Map<String, String>> encode(Collection<String> targets) {
    var sorted = new ArrayList<>(new TreeSet<>(targets));
    for (var name : sorted) {
      if (name.isEmpty() || name.indexOf('\n') >= 0) {
        throw new IllegalArgumentException("a target name must be non-empty and one line: " + name);
      }
    }
    var digest = digest(sorted);
    // try one part; when a part does not fit, estimate the count from its size (with 10 % room)
    // and try again, so a large set is compressed about twice, not once per part count
    int parts = 1;
    while (true) {
      var chunks = split(sorted, parts);
      var encoded = new ArrayList<String>();
      boolean fits = true;
      for (var chunk : chunks) {
        var text = compress(String.join("\n", chunk));
        if (text.length() > MAX_ENCODED) {
          fits = false;
          long estimate = (long) text.length() * chunks.size();
          parts = Math.max(parts + 1, (int) Math.ceil(estimate / (0.9 * MAX_ENCODED)));
          break;
        }
        encoded.add(text);
      }
      if (fits) {
        var out = new ArrayList<Map<String, String>>();
        for (int i = 0; i < encoded.size(); i++) {
          var annotations = new LinkedHashMap<String, String>();
          annotations.put(TARGETS, encoded.get(i));
          annotations.put(PART, i + "/" + encoded.size());
          annotations.put(COUNT, Integer.toString(sorted.size()));
          annotations.put(DIGEST, digest);
          out.add(annotations);
        }
        return out;
      }
    }
  }

  /**
   * Reads the annotations of every part of one replica (any order). Missing, duplicated or
   * inconsistent parts, bad base64 or gzip, an oversized part and a digest or count that does not
   * match all read as {@link Decoded.Unreadable}.
   */
  public static Decoded decode(Collection<Map<String, String>> parts) {
    if (parts.isEmpty()) {
      return new Decoded.Unreadable("no parts");
    }
    String digest = null;
    String count = null;
    int total = -1;
    var byIndex = new String[0];
    for (var annotations : parts) {
      var part = annotations.get(PART);
      var text = annotations.get(TARGETS);
      if (part == null || text == null) {
        return new Decoded.Unreadable("a part lacks " + (part == null ? PART : TARGETS));
      }
      int slash = part.indexOf('/');
      int index;
      int of;
      try {
        index = Integer.parseInt(part.substring(0, Math.max(slash, 0)));
        of = Integer.parseInt(part.substring(slash + 1));
      } catch (NumberFormatException | StringIndexOutOfBoundsException e) {
        return new Decoded.Unreadable("part number '" + part + "' is not i/n");
      }
      if (of < 1 || index < 0 || index >= of) {
        return new Decoded.Unreadable("part number '" + part + "' is out of range");
      }
      if (total < 0) {
        total = of;
        byIndex = new String[of];
        digest = annotations.get(DIGEST);
        count = annotations.get(COUNT);
      } else if (total != of
          || !java.util.Objects.equals(digest, annotations.get(DIGEST))
          || !java.util.Objects.equals(count, annotations.get(COUNT))) {
        return new Decoded.Unreadable(
            "parts of different publications are mixed (being rewritten?)");
      }
      if (byIndex[index] != null) {
        return new Decoded.Unreadable("part " + index + " appears twice");
      }
      if (text.length() > MAX_ENCODED) {
        return new Decoded.Unreadable(
            "part " + index + " holds more than " + MAX_ENCODED + " characters");
      }
      byIndex[index] = text;
    }
    if (parts.size() != total) {
      return new Decoded.Unreadable(parts.size() + " of " + total + " parts are present");
    }
    var targets = new ArrayList<String>();
    for (int i = 0; i < total; i++) {
      String text;
      try {
        text = decompress(byIndex[i]);
      } catch (IllegalArgumentException | IOException e) {
        return new Decoded.Unreadable("part " + i + " does not decode: " + e.getMessage());
      }
      if (!text.isEmpty()) {
        targets.addAll(List.of(text.split("\n", -1)));
      }
    }
    if (!Integer.toString(targets.size()).equals(count)) {
      return new Decoded.Unreadable(
          "the parts hold " + targets.size() + " targets, the count says " + count);
    }
    for (int i = 1; i < targets.size(); i++) {
      if (targets.get(i - 1).compareTo(targets.get(i)) >= 0) {
        return new Decoded.Unreadable("the targets are not sorted and distinct");
      }
    }
    if (!digest(targets).equals(digest)) {
      return new Decoded.Unreadable("the targets do not match their digest");
    }
    return new Decoded.Readable(new TreeSet<>(targets));
  }

  private static List<List<String>> split(List<String> sorted, int parts) {
    var chunks = new ArrayList<List<String>>();
    int size = (sorted.size() + parts - 1) / Math.max(parts, 1);
    if (sorted.isEmpty()) {
      chunks.add(List.of());
      return chunks;
    }
    for (int from = 0; from < sorted.size(); from += size) {
      chunks.add(sorted.subList(from, Math.min(sorted.size(), from + size)));
    }
    return chunks;
  }

  private static String compress(String text) {
    var bytes = new ByteArrayOutputStream();
    try (var gzip = new GZIPOutputStream(bytes)) {
      gzip.write(text.getBytes(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Base64.getEncoder().encodeToString(bytes.toByteArray());
  }

  private static String decompress(String base64) throws IOException {
    var compressed = Base64.getDecoder().decode(base64);
    try (InputStream in = new GZIPInputStream(new java.io.ByteArrayInputStream(compressed))) {
      var data = in.readNBytes(MAX_DECODED + 1);
      if (data.length > MAX_DECODED) {
        throw new IOException("it decodes to more than " + MAX_DECODED + " bytes");
      }
      return new String(data, StandardCharsets.UTF_8);
    }
  }

  private static String digest(List<String> sorted) {
    try {
      var sha = MessageDigest.getInstance("SHA-256");
      sha.update(String.join("\n", sorted).getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
