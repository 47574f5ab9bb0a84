package dev.headroom.cli.input;

import dev.headroom.core.input.InputText;
import dev.headroom.core.input.TextInputException;
import dev.headroom.core.input.YamlLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.snakeyaml.engine.v2.nodes.Node;

/**
 * Reads Kubernetes YAML (or JSON) files: one or more documents separated by {@code ---}, each an object or a
 * {@code List} ({@code kind: List} or any {@code *List} kind with {@code items}) whose items are objects. Every object
 * comes back as an {@link InputDocument} with the {@code FILE:LINE} where it starts, whatever its kind: callers pick
 * the kinds they understand and report or ignore the rest. Empty documents are skipped; a file without any object is
 * an error, as for kubectl. As with {@code kubectl -f}, {@code -} reads standard input and a directory reads every
 * {@code .yaml}, {@code .yml} and {@code .json} file in it (not its subdirectories), in name order.
 *
 * <p>The YAML itself goes through core's {@link YamlLoader}, the one loading path of every command (anchors,
 * aliases and merge keys; duplicate keys, size and nesting limits). Errors are {@link InputException}s with a
 * one-line {@code FILE:LINE: message}; no stack traces.
 *
 * <p>The loader also remembers the line of every mapping key it read, so that a command that validates a document's
 * fields can report the line of the offending field ({@link #lineOf}).
 */
public final class YamlInputLoader {

  /** The file name that means standard input. */
  public static final String STDIN = "-";
  /** How standard input is named in messages. */
  public static final String STDIN_LABEL = "stdin";

  /** Every mapping read by this loader → its keys' lines. */
  private final Map<Object, Map<String, Integer>> keyLines = new IdentityHashMap<>();
  /** Every sequence read by this loader → its items' lines. */
  private final Map<Object, List<Integer>> listLines = new IdentityHashMap<>();
  private final InputStream stdin;

  /** A loader whose {@code -} is {@link System#in}. */
  public YamlInputLoader() {
    this(System.in);
  }

  /** A loader whose {@code -} reads {@code stdin}. */
  public YamlInputLoader(InputStream stdin) {
    this.stdin = stdin;
  }

  /** Loads every object of every file, in order. Stops at the first malformed file. */
  public List<InputDocument> load(List<Path> files) throws InputException {
    List<InputDocument> out = new ArrayList<>();
    for (Path f : files) {
      out.addAll(load(f));
    }
    return out;
  }

  /** Loads every object of one file ({@code -}: standard input; a directory: its YAML and JSON files), in order. */
  public List<InputDocument> load(Path file) throws InputException {
    String name = file.toString();
    if (name.equals(STDIN)) {
      return readStdin();
    }
    if (Files.isDirectory(file)) {
      List<Path> members = new ArrayList<>();
      try (DirectoryStream<Path> dir = Files.newDirectoryStream(file)) {
        for (Path p : dir) {
          String n = p.getFileName().toString().toLowerCase(Locale.ROOT);
          if ((n.endsWith(".yaml") || n.endsWith(".yml") || n.endsWith(".json")) && !Files.isDirectory(p)) {
            members.add(p);
          }
        }
      } catch (IOException e) {
        throw new InputException(new Position(name, 0), "cannot read the directory: " + InputText.whyUnreadable(e));
      }
      if (members.isEmpty()) {
        throw new InputException(new Position(name, 0), "the directory has no .yaml, .yml or .json files");
      }
      members.sort(null);
      return load(members);
    }
    try (InputStream in = Files.newInputStream(file)) {
      return parseStream(name, InputText.utf8Reader(in));
    } catch (IOException e) {
      throw new InputException(new Position(name, 0), InputText.whyUnreadable(e));
    }
  }

  private List<InputDocument> readStdin() throws InputException {
    return parseStream(STDIN_LABEL, InputText.utf8Reader(stdin));
  }

  /** Parses YAML text named {@code file} (used for messages). */
  public List<InputDocument> parse(String file, Reader text) throws InputException {
    return parseStream(file, new Reader() {
      private boolean first = true;

      @Override
      public int read(char[] buf, int off, int len) throws IOException {
        int n = text.read(buf, off, len);
        if (first && n > 0) {
          first = false;
          if (buf[off] == '\uFEFF') {
            System.arraycopy(buf, off + 1, buf, off, n - 1);
            return n == 1 ? read(buf, off, len) : n - 1;
          }
        }
        return n;
      }

      @Override
      public void close() throws IOException {
        text.close();
      }
    });
  }

  /**
   * Reads the documents of {@code text} one at a time; the items of a {@code List} are read (and limited) one by
   * one, so that a dump of any size is read without holding its YAML whole.
   */
  private List<InputDocument> parseStream(String file, Reader text) throws InputException {
    List<InputDocument> out = new ArrayList<>();
    List<Object> items = new ArrayList<>();
    List<Integer> itemLines = new ArrayList<>();
    YamlLoader.Positions positions = new YamlLoader.Positions() {
      @Override
      public void map(Map<String, Object> map, int line, Map<String, Integer> lines) {
        keyLines.put(map, lines);
      }

      @Override
      public void list(List<Object> list, int line, List<Integer> lines) {
        listLines.put(list, lines);
      }
    };
    try {
      YamlLoader.stream(file, text, true, new YamlLoader.Sink() {
        @Override
        public void item(Node item) {
          items.add(YamlLoader.plain(item, positions));
          itemLines.add(YamlLoader.line(item));
        }

        @Override
        public void document(Node root, boolean itemsSplit) {
          if (YamlLoader.isNull(root)) {
            return;
          }
          Position at = new Position(file, YamlLoader.line(root));
          Object doc = YamlLoader.plain(root, positions);
          if (itemsSplit && doc instanceof Map<?, ?> m) {
            // the items went by one at a time: put them back, with their lines, in the document they belong to
            List<Object> list = new ArrayList<>(items);
            cast(m).put("items", list);
            listLines.put(list, new ArrayList<>(itemLines));
          }
          items.clear();
          itemLines.clear();
          try {
            if (!(doc instanceof Map<?, ?>)) {
              throw new InputException(at, "a document must be a Kubernetes object (a mapping), found " + describe(doc));
            }
            addObject(out, at, cast(doc));
          } catch (InputException e) {
            throw new Stop(e);
          }
        }
      });
    } catch (TextInputException e) {
      throw new InputException(new Position(file, e.line()), e.getMessage());
    } catch (Stop e) {
      throw e.error;
    }
    if (out.isEmpty()) {
      throw new InputException(new Position(file, 1), "no objects (the file has no Kubernetes object)");
    }
    return out;
  }

  /** Carries a document's error out of the streaming reader, which stops there. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient InputException error;

    Stop(InputException error) {
      super(null, null, false, false);
      this.error = error;
    }
  }

  private void addObject(List<InputDocument> out, Position at, Map<String, Object> object) throws InputException {
    Object kind = object.get("kind");
    if (!(kind instanceof String k) || k.isEmpty()) {
      throw new InputException(at, "object has no kind");
    }
    if (!(object.get("apiVersion") instanceof String v) || v.isEmpty()) {
      throw new InputException(at, "object of kind " + k + " has no apiVersion");
    }
    if (k.endsWith("List") && object.containsKey("items")) {
      if (!(object.get("items") instanceof List<?> items)) {
        if (object.get("items") == null) {
          return;
        }
        throw new InputException(at, k + ".items must be a list");
      }
      List<Integer> itemLines = listLines.get(items);
      for (int i = 0; i < items.size(); i++) {
        Object item = items.get(i);
        Position itemAt = new Position(at.file(), itemLines == null ? at.line() : itemLines.get(i));
        if (!(item instanceof Map<?, ?>)) {
          throw new InputException(itemAt, "a " + k + " item must be a Kubernetes object (a mapping), found " + describe(item));
        }
        addObject(out, itemAt, cast(item));
      }
      return;
    }
    out.add(new InputDocument(at, object));
  }

  /**
   * The line of the field at {@code path} in a document this loader read: a dotted path with {@code [i]} for list
   * items, as validators name fields ({@code spec.maxSize}, {@code spec.template.spec.taints[0].effect}); keys that
   * contain dots ({@code metadata.annotations.headroom.dev/unneeded-since}) are matched as a whole. When the path goes
   * deeper than the document (a missing field), the line of the deepest field that exists is returned; the document's
   * own line when not even the first segment exists.
   */
  public int lineOf(InputDocument doc, String path) {
    int line = doc.position().line();
    Object node = doc.raw();
    String rest = path == null ? "" : path;
    while (!rest.isEmpty() && node != null) {
      if (rest.startsWith("[")) {
        int close = rest.indexOf(']');
        List<Integer> items = listLines.get(node);
        if (close < 0 || !(node instanceof List<?> list) || items == null) {
          break;
        }
        int i;
        try {
          i = Integer.parseInt(rest.substring(1, close));
        } catch (NumberFormatException e) {
          break;
        }
        if (i < 0 || i >= list.size()) {
          break;
        }
        line = items.get(i);
        node = list.get(i);
        rest = strip(rest.substring(close + 1));
        continue;
      }
      Map<String, Integer> keys = keyLines.get(node);
      if (keys == null || !(node instanceof Map<?, ?> map)) {
        break;
      }
      String best = null;
      for (String k : keys.keySet()) {
        if ((rest.equals(k) || rest.startsWith(k + ".") || rest.startsWith(k + "[")) && (best == null || k.length() > best.length())) {
          best = k;
        }
      }
      if (best == null) {
        break;
      }
      line = keys.get(best);
      node = map.get(best);
      rest = strip(rest.substring(best.length()));
    }
    return line;
  }

  private static String strip(String rest) {
    return rest.startsWith(".") ? rest.substring(1) : rest;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> cast(Object o) {
    return (Map<String, Object>) o;
  }

  private static String describe(Object o) {
    if (o instanceof List<?>) {
      return "a list";
    }
    return "the scalar \"" + o + "\"";
  }

  /** The first line of an exception's own message in plain words (see {@link PlainMessages}). */
  static String oneLine(Throwable e) {
    return PlainMessages.of(e);
  }
}
