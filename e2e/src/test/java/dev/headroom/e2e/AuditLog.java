package dev.headroom.e2e;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * The API server's audit log: one JSON event per line; the bed logs every write at RequestResponse level and every
 * read of a user other than {@code admin} at Metadata level.
 */
public final class AuditLog {
  private static final ObjectMapper JSON = JsonMapper.builder().build();

  /** One completed request. */
  public record Event(Instant received, Instant completed, String user, String verb, String resource, String subresource,
      String namespace, String name, int code, JsonNode raw) {
    /** True for a request that changes something. */
    public boolean write() {
      return switch (verb) {
        case "create", "update", "patch", "delete", "deletecollection" -> true;
        default -> false;
      };
    }

    /** True for a write of a CapacityBuffer (main resource or status). */
    public boolean bufferWrite() {
      return write() && resource.equals("capacitybuffers");
    }

    @Override
    public String toString() {
      return received + " " + user + " " + verb + " " + resource + (subresource.isEmpty() ? "" : "/" + subresource)
          + " " + namespace + "/" + name + " -> " + code;
    }
  }

  private final Path file;

  AuditLog(Path file) {
    this.file = file;
  }

  /** What has been parsed of one log file: its complete lines up to {@code offset}. */
  private static final class Parsed {
    Object fileKey;
    long offset;
    final List<Line> events = new ArrayList<>();
  }

  /** One parsed line: its event (at any stage), stage and audit ID. */
  private record Line(Event event, String stage, String auditId) {}

  /** Per file, so the many polls of a test (and the AuditLog instances of a long tier) parse each line once. */
  private static final Map<Path, Parsed> PARSED = new HashMap<>();

  /**
   * Every complete line of the log parsed so far, reading only what was appended since the last call (the log grows
   * by tens of MB over the tier: the corpus test's writes are logged with their bodies). Another file under the same
   * name (a new bed), or one shorter than what was read, is read again from its start.
   */
  private static synchronized List<Line> parsed(Path file) {
    Parsed p = PARSED.computeIfAbsent(file, f -> new Parsed());
    try {
      boolean exists = Files.exists(file);
      long size = exists ? Files.size(file) : 0;
      Object key = exists ? Files.readAttributes(file, java.nio.file.attribute.BasicFileAttributes.class).fileKey() : null;
      if (size < p.offset || !java.util.Objects.equals(key, p.fileKey)) {
        p.fileKey = key;
        p.offset = 0;
        p.events.clear();
      }
      if (size > p.offset) {
        byte[] bytes;
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
          ByteBuffer buf = ByteBuffer.allocate(Math.toIntExact(size - p.offset));
          ch.position(p.offset);
          while (buf.hasRemaining() && ch.read(buf) > 0) {
            // read up to the size seen
          }
          bytes = java.util.Arrays.copyOf(buf.array(), buf.position());
        }
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
          end--; // a line being written: read it again next time
        }
        int start = 0;
        for (int i = 0; i < end; i++) {
          if (bytes[i] == '\n') {
            String line = new String(bytes, start, i - start, StandardCharsets.UTF_8);
            if (!line.isBlank() && line.endsWith("}")) {
              JsonNode n = JSON.readTree(line);
              JsonNode ref = n.path("objectRef");
              Event e = new Event(Instant.parse(text(n, "requestReceivedTimestamp")), Instant.parse(text(n, "stageTimestamp")),
                  text(n.path("user"), "username"), text(n, "verb"), text(ref, "resource"), text(ref, "subresource"),
                  text(ref, "namespace"), text(ref, "name"), n.path("responseStatus").path("code").asInt(0), n);
              p.events.add(new Line(e, text(n, "stage"), text(n, "auditID")));
            }
            start = i + 1;
          }
        }
        p.offset += end;
      }
      return new ArrayList<>(p.events);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Every completed request logged so far that matches. */
  public List<Event> events(Predicate<Event> filter) {
    return read(filter, false);
  }

  /**
   * One event per request (audit ID) that matches: its ResponseComplete event, or, for a request still open (a
   * watch, which the log shows at ResponseStarted until it ends), its ResponseStarted one.
   */
  public List<Event> requests(Predicate<Event> filter) {
    return read(filter, true);
  }

  private List<Event> read(Predicate<Event> filter, boolean open) {
    Map<String, Event> started = new LinkedHashMap<>();
    List<Event> out = new ArrayList<>();
    for (Line l : parsed(file)) {
      boolean complete = "ResponseComplete".equals(l.stage());
      if (!complete && !(open && "ResponseStarted".equals(l.stage()))) {
        continue;
      }
      Event e = l.event();
      if (!filter.test(e)) {
        continue;
      }
      if (complete) {
        started.remove(l.auditId());
        out.add(e);
      } else {
        started.put(l.auditId(), e);
      }
    }
    out.addAll(started.values());
    return out;
  }

  /** Every request of one user. */
  public List<Event> requestsBy(String user) {
    return events(e -> e.user().equals(user));
  }

  /** Writes by one user. */
  public List<Event> writesBy(String user) {
    return events(e -> e.user().equals(user) && e.write());
  }

  private static String text(JsonNode n, String field) {
    JsonNode v = n.get(field);
    return v == null || v.isNull() ? "" : v.asString();
  }
}
