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
 * <p>Each object it returns carries the line of every mapping key and list item in it (a compact table, one int
 * each), so that a command that validates a document's fields can report the line of the offending field
 * ({@link #lineOf}); the loader itself keeps nothing of what it read.
 */
public final class YamlInputLoader {

  /** The file name that means standard input. */
  public static final String STDIN = "-";
  /** How standard input is named in messages. */
  public static final String STDIN_LABEL = "stdin";

  /** The lines of a tree: its table and the slot where this value's own slots start. */
  private record Lines(YamlLoader.LineTable table, int offset) implements InputDocument.Lines {}
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
    List<InputDocument> out = new ArrayList<>();
    read(file, out::add);
    return out;
  }

  /**
   * Hands every object of one file to {@code sink} as soon as it is read, in order, so that a caller that keeps less
   * than the whole tree of each object holds less than the whole input; {@link #load(Path)} keeps them all.
   */
  public void read(Path file, java.util.function.Consumer<InputDocument> sink) throws InputException {
    String name = file.toString();
    if (name.equals(STDIN)) {
      parseStream(STDIN_LABEL, InputText.utf8Reader(stdin), sink);
      return;
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
      for (Path m : members) {
        read(m, sink);
      }
      return;
    }
    try (InputStream in = Files.newInputStream(file)) {
      parseStream(name, InputText.utf8Reader(in), sink);
    } catch (IOException e) {
      throw new InputException(new Position(name, 0), InputText.whyUnreadable(e));
    }
  }

  /** Parses YAML text named {@code file} (used for messages). */
  public List<InputDocument> parse(String file, Reader text) throws InputException {
    List<InputDocument> out = new ArrayList<>();
    parseStream(file, new Reader() {
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
    }, out::add);
    return out;
  }

  /**
   * Reads the documents of {@code text} one at a time; the items of a {@code List} are read (and limited) one by
   * one, so that a dump of any size is read without holding its YAML whole.
   */
  private void parseStream(String file, Reader text, java.util.function.Consumer<InputDocument> sink) throws InputException {
    int[] count = {0};
    java.util.function.Consumer<InputDocument> out = d -> {
      count[0]++;
      sink.accept(d);
    };
    List<Object> items = new ArrayList<>();
    List<Integer> itemLines = new ArrayList<>();
    List<Lines> itemTables = new ArrayList<>();
    Map<String, String> strings = new java.util.HashMap<>();
    try {
      YamlLoader.stream(file, text, true, new YamlLoader.Sink() {
        @Override
        public void item(Node item) {
          YamlLoader.LineTable table = new YamlLoader.LineTable();
          items.add(YamlLoader.plainWithLines(item, table, strings));
          itemLines.add(YamlLoader.line(item));
          itemTables.add(new Lines(table.trim(), 0));
        }

        @Override
        public void document(Node root, boolean itemsSplit) {
          if (YamlLoader.isNull(root)) {
            return;
          }
          Position at = new Position(file, YamlLoader.line(root));
          YamlLoader.LineTable table = new YamlLoader.LineTable();
          Object doc = YamlLoader.plainWithLines(root, table, strings);
          Split split = null;
          if (itemsSplit && doc instanceof Map<?, ?> m) {
            // the items went by one at a time: put them back in the document they belong to, each with its lines
            List<Object> list = new ArrayList<>(items);
            cast(m).put("items", list);
            split = new Split(list, new ArrayList<>(itemLines), new ArrayList<>(itemTables));
          }
          items.clear();
          itemLines.clear();
          itemTables.clear();
          try {
            if (!(doc instanceof Map<?, ?>)) {
              throw new InputException(at, "a document must be a Kubernetes object (a mapping), found " + describe(doc));
            }
            addObject(out, at, cast(doc), new Lines(table.trim(), 0), split);
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
    if (count[0] == 0) {
      throw new InputException(new Position(file, 1), "no objects (the file has no Kubernetes object)");
    }
  }

  /** The items of a document's {@code items} list that were read one at a time: their lines and tables. */
  private record Split(List<Object> list, List<Integer> lines, List<Lines> tables) {}

  /** Carries a document's error out of the streaming reader, which stops there. */
  private static final class Stop extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final transient InputException error;

    Stop(InputException error) {
      super(null, null, false, false);
      this.error = error;
    }
  }

  private void addObject(java.util.function.Consumer<InputDocument> out, Position at, Map<String, Object> object, Lines where, Split split)
      throws InputException {
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
      boolean alone = split != null && split.list() == items;
      int slot = alone ? 0 : valueSlot(where, object, "items");
      for (int i = 0; i < items.size(); i++) {
        Object item = items.get(i);
        int line;
        Lines itemLines;
        if (alone) {
          line = split.lines().get(i);
          itemLines = split.tables().get(i);
        } else {
          line = where.table().line(slot);
          itemLines = new Lines(where.table(), slot + 1);
          slot += 1 + YamlLoader.LineTable.slots(item);
        }
        Position itemAt = new Position(at.file(), line);
        if (!(item instanceof Map<?, ?>)) {
          throw new InputException(itemAt, "a " + k + " item must be a Kubernetes object (a mapping), found " + describe(item));
        }
        addObject(out, itemAt, cast(item), itemLines, null);
      }
      return;
    }
    out.accept(new InputDocument(at, object, where));
  }

  /** The slot of the line of {@code key} in a mapping whose own slots start at {@code where}. */
  private static int valueSlot(Lines where, Map<?, ?> map, String key) {
    int slot = where.offset();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (key.equals(e.getKey())) {
        return slot;
      }
      slot += 1 + YamlLoader.LineTable.slots(e.getValue());
    }
    return slot;
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
    if (!(doc.lines() instanceof Lines where)) {
      return line;
    }
    YamlLoader.LineTable table = where.table();
    int slot = where.offset();
    Object node = doc.raw();
    String rest = path == null ? "" : path;
    while (!rest.isEmpty() && node != null) {
      if (rest.startsWith("[")) {
        int close = rest.indexOf(']');
        if (close < 0 || !(node instanceof List<?> list)) {
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
        for (int j = 0; j < i; j++) {
          slot += 1 + YamlLoader.LineTable.slots(list.get(j));
        }
        line = table.line(slot);
        slot++;
        node = list.get(i);
        rest = strip(rest.substring(close + 1));
        continue;
      }
      if (!(node instanceof Map<?, ?> map)) {
        break;
      }
      String best = null;
      for (Object key : map.keySet()) {
        String k = (String) key;
        if ((rest.equals(k) || rest.startsWith(k + ".") || rest.startsWith(k + "[")) && (best == null || k.length() > best.length())) {
          best = k;
        }
      }
      if (best == null) {
        break;
      }
      int keySlot = valueSlot(new Lines(table, slot), map, best);
      line = table.line(keySlot);
      slot = keySlot + 1;
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
