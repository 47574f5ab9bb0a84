package dev.headroom.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
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
    List<String> lines;
    try {
      lines = Files.exists(file) ? Files.readAllLines(file, StandardCharsets.UTF_8) : List.of();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    for (String line : lines) {
      if (line.isBlank() || !line.endsWith("}")) {
        continue; // a line being written
      }
      JsonNode n = JSON.readTree(line);
      String stage = text(n, "stage");
      boolean complete = "ResponseComplete".equals(stage);
      if (!complete && !(open && "ResponseStarted".equals(stage))) {
        continue;
      }
      JsonNode ref = n.path("objectRef");
      Event e = new Event(Instant.parse(text(n, "requestReceivedTimestamp")), Instant.parse(text(n, "stageTimestamp")),
          text(n.path("user"), "username"), text(n, "verb"), text(ref, "resource"), text(ref, "subresource"),
          text(ref, "namespace"), text(ref, "name"), n.path("responseStatus").path("code").asInt(0), n);
      if (!filter.test(e)) {
        continue;
      }
      if (complete) {
        started.remove(text(n, "auditID"));
        out.add(e);
      } else {
        started.put(text(n, "auditID"), e);
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
