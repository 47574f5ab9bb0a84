package dev.headroom.core.input;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.composer.Composer;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.exceptions.MarkedYamlEngineException;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.parser.Parser;
import org.snakeyaml.engine.v2.parser.ParserImpl;
import org.snakeyaml.engine.v2.scanner.StreamReader;

/**
 * The one YAML loading path of every command ({@code explain}, {@code plan}, {@code simulate}, {@code recommend}
 * and {@code run --node-groups}): YAML 1.2 (core schema) with anchors and aliases, merge keys ({@code <<}, resolved
 * as kubectl's YAML library does: explicit keys win, then the merged mappings in order), and explicit limits.
 * Duplicate keys in one mapping are errors, as is a document over {@link InputText#MAX_DOCUMENT_CHARS}, nesting deeper than
 * {@link #MAX_DEPTH}, more than {@link #MAX_ALIASES} aliases of collections, more than {@link #MAX_VALUES} values
 * after expanding aliases, and a structure that contains itself. Every error is a {@link TextInputException} with
 * the line.
 */
public final class YamlLoader {

  /** Deepest nesting of mappings and sequences (real manifests stay below 20). */
  public static final int MAX_DEPTH = 100;
  /** Most aliases of mappings or sequences in one document (the "billion laughs" guard). */
  public static final int MAX_ALIASES = 100;
  /** Most values (scalars, mappings, sequences) of one document once its aliases are expanded. */
  public static final int MAX_VALUES = 1_000_000;

  private YamlLoader() {}

  /**
   * The engine's default schema (JSON), with the common case answered before its patterns: an implicit plain
   * scalar that starts with a letter other than {@code t}, {@code f} and {@code n} is a string under it (its
   * resolvers are chosen by the first character, and only {@code true}, {@code false} and {@code null} start with a
   * letter), and one that does start with them is a string unless it is exactly that word.
   */
  private static final org.snakeyaml.engine.v2.schema.Schema SCHEMA = new org.snakeyaml.engine.v2.schema.JsonSchema() {
    private final org.snakeyaml.engine.v2.resolver.ScalarResolver resolver = new org.snakeyaml.engine.v2.resolver.ScalarResolver() {
      private final org.snakeyaml.engine.v2.resolver.ScalarResolver engine = new org.snakeyaml.engine.v2.resolver.JsonScalarResolver();

      @Override
      public Tag resolve(String value, Boolean implicit) {
        if (Boolean.TRUE.equals(implicit) && !value.isEmpty()) {
          char c = value.charAt(0);
          if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
            if (c == 't' || c == 'f' || c == 'n') {
              if (!value.equals("true") && !value.equals("false") && !value.equals("null")) {
                return Tag.STR;
              }
            } else {
              return Tag.STR;
            }
          }
        }
        return engine.resolve(value, implicit);
      }
    };

    @Override
    public org.snakeyaml.engine.v2.resolver.ScalarResolver getScalarResolver() {
      return resolver;
    }
  };

  /** Where the values of a plain tree came from; see {@link #plain(Node, Positions)}. */
  public interface Positions {
    /** A mapping built from the YAML at {@code line}, with each key's line. */
    void map(Map<String, Object> map, int line, Map<String, Integer> keyLines);

    /** A list built from the YAML at {@code line}, with each item's line. */
    void list(List<Object> list, int line, List<Integer> itemLines);
  }

  /**
   * Receives what {@link #stream} reads, one unit of the limits at a time (merge keys resolved, limits checked).
   */
  public interface Sink {
    /**
     * One item of the {@code items} list of a document's root mapping, when items are read one by one: every item
     * of a document comes before the document itself. Ignored unless overridden.
     */
    default void item(Node item) {
    }

    /**
     * A document's root (an empty document is a null scalar). When items are read one by one, the root's
     * {@code items} list (if any) is empty here and {@code itemsSplit} is true: its items went to {@link #item}.
     */
    void document(Node root, boolean itemsSplit);
  }

  /**
   * The root node of every document of {@code text}, in order (an empty document is a null scalar), with merge keys
   * resolved into their mappings.
   *
   * @throws TextInputException for malformed YAML or a broken limit
   */
  public static List<Node> compose(String label, String text) {
    List<Node> docs = new ArrayList<>();
    stream(label, new java.io.StringReader(text), false, (root, split) -> docs.add(root));
    return docs;
  }

  /**
   * Reads the documents of {@code reader} one at a time, so that a stream of any length can be read: only one
   * document (or, with {@code splitItems}, one item of a root mapping's {@code items} list, as in a {@code List}
   * that {@code kubectl get -o yaml} prints) is held as nodes at once. Each such unit may hold at most
   * {@link InputText#MAX_DOCUMENT_CHARS} characters; nesting, alias and value limits apply per document as before.
   *
   * @throws TextInputException for malformed YAML or a broken limit, with the line
   */
  public static void stream(String label, java.io.Reader reader, boolean splitItems, Sink sink) {
    LoadSettings settings = LoadSettings.builder()
        .setLabel(label)
        .setAllowDuplicateKeys(false)
        .setAllowRecursiveKeys(false)
        .setMaxAliasesForCollections(MAX_ALIASES)
        // the size of one document is checked below (List items alone); the engine's own count is off
        .setCodePointLimit(Integer.MAX_VALUE)
        // large enough for the longest token of one document: the scanner's refills are quadratic in a token's length
        .setBufferSize(1024 * 1024)
        .setSchema(SCHEMA)
        .build();
    try {
      Limits limits = new Limits(new ParserImpl(settings, new StreamReader(settings, reader)));
      UnitComposer composer = new UnitComposer(settings, limits, splitItems ? sink : null);
      while (composer.hasNext()) {
        composer.split = false;
        Node root = composer.next();
        normalise(limits, root, 0);
        sink.document(root, composer.split);
      }
    } catch (MarkedYamlEngineException e) {
      int line = e.getProblemMark().or(e::getContextMark).map(m -> m.getLine() + 1).orElse(0);
      throw new TextInputException(line, "YAML syntax error: " + plainProblem(e.getProblem()));
    } catch (YamlEngineException e) {
      throw new TextInputException(0, "YAML error: " + plainProblem(e.getMessage()));
    }
  }

  /** The composer that hands each item of a root mapping's {@code items} list to the sink as soon as it is read. */
  private static final class UnitComposer extends Composer {
    private final Limits limits;
    private final Sink sink;
    private int depth;
    boolean split;

    UnitComposer(LoadSettings settings, Limits limits, Sink sink) {
      super(settings, limits);
      this.limits = limits;
      this.sink = sink;
    }

    @Override
    protected Node composeMappingNode(java.util.Optional<org.snakeyaml.engine.v2.common.Anchor> anchor) {
      return nested(() -> super.composeMappingNode(anchor));
    }

    @Override
    protected SequenceNode composeSequenceNode(java.util.Optional<org.snakeyaml.engine.v2.common.Anchor> anchor) {
      return nested(() -> super.composeSequenceNode(anchor));
    }

    /** Composes one collection one level deeper ({@link #depth} counts the open collections). */
    private <T extends Node> T nested(java.util.function.Supplier<T> compose) {
      depth++;
      try {
        return compose.get();
      } finally {
        depth--;
      }
    }

    @Override
    protected void composeMappingChildren(List<NodeTuple> children, MappingNode node) {
      if (sink == null || depth != 1 || !parser.checkEvent(Event.ID.Scalar)
          || !"items".equals(((org.snakeyaml.engine.v2.events.ScalarEvent) parser.peekEvent()).getValue())) {
        super.composeMappingChildren(children, node);
        return;
      }
      Node key = composeKeyNode(node);
      if (!parser.checkEvent(Event.ID.SequenceStart)
          || ((org.snakeyaml.engine.v2.events.NodeEvent) parser.peekEvent()).getAnchor().isPresent()) {
        children.add(new NodeTuple(key, composeValueNode(node)));
        return;
      }
      Event start = limits.next();
      depth++;
      while (!parser.checkEvent(Event.ID.SequenceEnd)) {
        limits.beginUnit(parser.peekEvent(), true);
        Node item = composeValueNode(node);
        normalise(limits, item, depth);
        sink.item(item);
      }
      depth--;
      Event end = limits.next();
      limits.beginUnit(end, false);
      split = true;
      children.add(new NodeTuple(key, new SequenceNode(Tag.SEQ, true, new ArrayList<>(),
          org.snakeyaml.engine.v2.common.FlowStyle.BLOCK, start.getStartMark(), end.getEndMark())));
    }
  }

  /**
   * Checks keys and resolves merge keys of {@code n}: with the full {@link Normaliser} when the document so far has
   * an anchor, an alias or a merge key, else with {@link #plainCheck}, which gives the same answers without the
   * per-node bookkeeping that aliases need (every node is then reached once).
   */
  private static void normalise(Limits limits, Node n, int depth) {
    if (limits.shared) {
      new Normaliser().visit(n, depth);
    } else {
      plainCheck(n, depth);
    }
  }

  /**
   * {@link Normaliser#visit} for a tree without anchors, aliases or merge keys, in the same order (a key that is
   * not a string before the value below it, the value before the mapping's duplicate keys, a value count after its
   * children): returns how many values the node holds.
   */
  private static long plainCheck(Node n, int depth) {
    if (depth > MAX_DEPTH) {
      throw Normaliser.tooDeep(n);
    }
    long size = 1;
    if (n instanceof MappingNode m) {
      List<NodeTuple> tuples = m.getValue();
      for (NodeTuple t : tuples) {
        if (!(t.getKeyNode() instanceof ScalarNode)) {
          throw at(t.getKeyNode(), "mapping keys must be strings, not a " + (t.getKeyNode() instanceof MappingNode ? "mapping" : "list"));
        }
        size += 1 + plainCheck(t.getValueNode(), depth + 1);
      }
      duplicates(tuples);
    } else if (n instanceof SequenceNode s) {
      for (Node item : s.getValue()) {
        size += plainCheck(item, depth + 1);
      }
    }
    if (size > MAX_VALUES) {
      throw at(n, "more than " + MAX_VALUES + " values once aliases are expanded (the limit of one document)");
    }
    return size;
  }

  /** Fails on the first key given twice in one mapping, as {@link Normaliser#merged} does. */
  private static void duplicates(List<NodeTuple> tuples) {
    if (tuples.size() > 8) {
      Map<String, Node> explicit = new HashMap<>();
      for (NodeTuple t : tuples) {
        Node first = explicit.putIfAbsent(keyText(t.getKeyNode()), t.getKeyNode());
        if (first != null) {
          throw duplicate(t.getKeyNode(), first);
        }
      }
      return;
    }
    for (int i = 1; i < tuples.size(); i++) {
      String key = keyText(tuples.get(i).getKeyNode());
      for (int j = 0; j < i; j++) {
        if (key.equals(keyText(tuples.get(j).getKeyNode()))) {
          throw duplicate(tuples.get(i).getKeyNode(), tuples.get(j).getKeyNode());
        }
      }
    }
  }

  private static TextInputException duplicate(Node key, Node first) {
    return at(key, "duplicate key \"" + keyText(key) + "\" (first at line " + line(first) + ")");
  }

  /** The 1-based line where a node starts (1 when unknown). */
  public static int line(Node node) {
    return node.getStartMark().map(m -> m.getLine() + 1).orElse(1);
  }

  /** True for an explicit or implicit YAML null ({@code null}, {@code ~} or nothing), not for a quoted one. */
  public static boolean isNull(Node node) {
    return node instanceof ScalarNode s && s.getTag().equals(Tag.NULL) && s.getScalarStyle() == ScalarStyle.PLAIN;
  }

  /**
   * The node as plain Java values: {@code LinkedHashMap} (keys in input order), {@code ArrayList}, {@code String},
   * {@code Long} (or {@code BigInteger} when it does not fit), {@code Double}, {@code Boolean}, null. An alias becomes
   * a copy of what it refers to, so no two places of the result share an object.
   *
   * @param positions receives each mapping's and list's lines, or null
   */
  public static Object plain(Node node, Positions positions) {
    return plainOf(node, positions);
  }

  /**
   * The node as plain Java values, as {@link #plain(Node, Positions)} makes them, with the lines appended to
   * {@code lines} in the tree's pre-order: for a mapping, each key's line followed by its value's lines, in the
   * result's key order; for a list, each item's line followed by the item's lines; nothing for a scalar. One int per
   * key or item, so that a reader can keep the lines of a large input instead of a map per mapping; {@link
   * LineTable#slots} tells how many a value holds, to find a field's line by walking the result. Mappings are
   * {@link PlainMap}s (input order, compact); equal keys are one instance per {@code strings}, a reader's table of
   * them (null: none shared).
   */
  public static Object plainWithLines(Node node, LineTable lines, Map<String, String> strings) {
    return plainOf(node, lines, strings);
  }

  /** The lines of one plain tree in pre-order (see {@link #plainWithLines}). */
  public static final class LineTable {
    private int[] lines = new int[64];
    private int size;

    void add(int line) {
      if (size == lines.length) {
        lines = java.util.Arrays.copyOf(lines, size * 2);
      }
      lines[size++] = line;
    }

    /** The line in slot {@code i}. */
    public int line(int i) {
      return lines[i];
    }

    /** How many slots the table holds. */
    public int size() {
      return size;
    }

    /** Drops the unused capacity (once the tree is read). */
    public LineTable trim() {
      if (lines.length > size) {
        lines = java.util.Arrays.copyOf(lines, size);
      }
      return this;
    }

    /** How many slots a value of a plain tree takes: one per key or item below it, none for a scalar. */
    public static int slots(Object value) {
      int n = 0;
      if (value instanceof Map<?, ?> m) {
        for (Object v : m.values()) {
          n += 1 + slots(v);
        }
      } else if (value instanceof List<?> l) {
        for (Object v : l) {
          n += 1 + slots(v);
        }
      }
      return n;
    }
  }

  private static Object plainOf(Node n, LineTable lines, Map<String, String> strings) {
    if (n instanceof MappingNode m) {
      List<NodeTuple> tuples = m.getValue();
      PlainMap out = new PlainMap(tuples.size());
      for (NodeTuple t : tuples) {
        lines.add(line(t.getKeyNode()));
        out.put(shared(strings, keyText(t.getKeyNode())), plainOf(t.getValueNode(), lines, strings));
      }
      return out.trim();
    }
    if (n instanceof SequenceNode s) {
      List<Object> out = new ArrayList<>(s.getValue().size());
      for (Node item : s.getValue()) {
        lines.add(line(item));
        out.add(plainOf(item, lines, strings));
      }
      return out;
    }
    return scalar((ScalarNode) n);
  }

  /** At most this many distinct keys are shared. */
  private static final int SHARED_MAX = 1 << 16;

  /** One instance of the key {@code s} per reader (keys repeat in every object), up to {@link #SHARED_MAX}. */
  private static String shared(Map<String, String> strings, String s) {
    if (strings == null) {
      return s;
    }
    String known = strings.get(s);
    if (known != null) {
      return known;
    }
    if (strings.size() < SHARED_MAX) {
      strings.put(s, s);
    }
    return s;
  }

  private static Object plainOf(Node n, Positions positions) {
    if (n instanceof MappingNode m) {
      Map<String, Object> out = new LinkedHashMap<>();
      Map<String, Integer> keyLines = positions == null ? null : new HashMap<>();
      for (NodeTuple t : m.getValue()) {
        String key = keyText(t.getKeyNode());
        out.put(key, plainOf(t.getValueNode(), positions));
        if (keyLines != null) {
          keyLines.put(key, line(t.getKeyNode()));
        }
      }
      if (positions != null) {
        positions.map(out, line(n), keyLines);
      }
      return out;
    }
    if (n instanceof SequenceNode s) {
      List<Object> out = new ArrayList<>(s.getValue().size());
      List<Integer> lines = positions == null ? null : new ArrayList<>(s.getValue().size());
      for (Node item : s.getValue()) {
        out.add(plainOf(item, positions));
        if (lines != null) {
          lines.add(line(item));
        }
      }
      if (positions != null) {
        positions.list(out, line(n), lines);
      }
      return out;
    }
    return scalar((ScalarNode) n);
  }

  /** A scalar under the YAML 1.2 core schema (quoted scalars are strings). */
  public static Object scalar(ScalarNode s) {
    if (isNull(s)) {
      return null;
    }
    Tag tag = s.getTag();
    String v = s.getValue();
    if (tag.equals(Tag.BOOL)) {
      return Boolean.parseBoolean(v.toLowerCase(java.util.Locale.ROOT));
    }
    if (tag.equals(Tag.INT)) {
      try {
        String digits = v.startsWith("+") ? v.substring(1) : v;
        BigInteger big = digits.startsWith("0x") ? new BigInteger(digits.substring(2), 16)
            : digits.startsWith("0o") ? new BigInteger(digits.substring(2), 8) : new BigInteger(digits);
        return big.bitLength() < 64 ? (Object) big.longValue() : big;
      } catch (NumberFormatException e) {
        return v;
      }
    }
    if (tag.equals(Tag.FLOAT)) {
      String f = v.toLowerCase(java.util.Locale.ROOT);
      if (f.endsWith(".inf")) {
        return f.startsWith("-") ? Double.NEGATIVE_INFINITY : Double.POSITIVE_INFINITY;
      }
      if (f.equals(".nan")) {
        return Double.NaN;
      }
      try {
        return Double.parseDouble(v);
      } catch (NumberFormatException e) {
        return v;
      }
    }
    return v;
  }

  private static String keyText(Node key) {
    return ((ScalarNode) key).getValue();
  }

  private static String plainProblem(String problem) {
    if (problem == null) {
      return "malformed input";
    }
    String p = problem.trim();
    int nl = p.indexOf('\n');
    return nl >= 0 ? p.substring(0, nl).trim() : p;
  }

  private static TextInputException at(Node node, String problem) {
    return new TextInputException(line(node), problem);
  }

  /**
   * Checks keys and resolves merge keys, once per node (aliases share nodes); counts values as if aliases were
   * expanded and refuses a node that contains itself.
   */
  private static final class Normaliser {
    private final Set<Node> done = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Node> open = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Node, Long> sizes = new IdentityHashMap<>();
    private final Map<Node, Integer> heights = new IdentityHashMap<>();

    /** Normalises {@code n}, reached at nesting {@code depth}, and returns how many values it holds once expanded. */
    long visit(Node n, int depth) {
      if (open.contains(n)) {
        throw at(n, "an alias refers to a mapping or list that contains it (a recursive structure)");
      }
      Long known = sizes.get(n);
      if (known != null) {
        if (depth + heights.get(n) > MAX_DEPTH) {
          throw tooDeep(n);
        }
        return known;
      }
      if (depth > MAX_DEPTH) {
        throw tooDeep(n);
      }
      open.add(n);
      long size = 1;
      int height = 0;
      if (n instanceof MappingNode m) {
        for (NodeTuple t : m.getValue()) {
          if (!(t.getKeyNode() instanceof ScalarNode)) {
            throw at(t.getKeyNode(), "mapping keys must be strings, not a " + (t.getKeyNode() instanceof MappingNode ? "mapping" : "list"));
          }
          visit(t.getValueNode(), depth + 1);
        }
        if (!done.contains(m)) {
          m.setValue(merged(m));
        }
        for (NodeTuple t : m.getValue()) {
          size += 1 + sizes.get(t.getValueNode());
          height = Math.max(height, 1 + heights.get(t.getValueNode()));
        }
      } else if (n instanceof SequenceNode s) {
        for (Node item : s.getValue()) {
          size += visit(item, depth + 1);
          height = Math.max(height, 1 + heights.get(item));
        }
      }
      open.remove(n);
      done.add(n);
      if (size > MAX_VALUES) {
        throw at(n, "more than " + MAX_VALUES + " values once aliases are expanded (the limit of one document)");
      }
      sizes.put(n, size);
      heights.put(n, height);
      return size;
    }

    private static TextInputException tooDeep(Node n) {
      return at(n, "nested more than " + MAX_DEPTH + " levels deep once aliases are expanded (the limit of one document)");
    }

    private static boolean isMergeKey(Node key) {
      return key instanceof ScalarNode k && k.getScalarStyle() == ScalarStyle.PLAIN && "<<".equals(k.getValue());
    }

    /** The mapping's entries with {@code <<} replaced by the merged entries; duplicate explicit keys fail. */
    private static List<NodeTuple> merged(MappingNode m) {
      Map<String, Node> explicit = new HashMap<>();
      boolean merges = false;
      for (NodeTuple t : m.getValue()) {
        if (isMergeKey(t.getKeyNode())) {
          merges = true;
          continue;
        }
        String key = keyText(t.getKeyNode());
        Node first = explicit.putIfAbsent(key, t.getKeyNode());
        if (first != null) {
          throw duplicate(t.getKeyNode(), first);
        }
      }
      if (!merges) {
        return m.getValue();
      }
      List<NodeTuple> out = new ArrayList<>();
      Set<String> seen = new java.util.HashSet<>(explicit.keySet());
      for (NodeTuple t : m.getValue()) {
        if (!isMergeKey(t.getKeyNode())) {
          out.add(t);
          continue;
        }
        Node source = t.getValueNode();
        List<Node> sources = source instanceof SequenceNode seq ? seq.getValue() : List.of(source);
        for (Node s : sources) {
          if (!(s instanceof MappingNode sm)) {
            throw at(s, "a merge key (<<) takes a mapping or a list of mappings");
          }
          for (NodeTuple st : sm.getValue()) {
            if (seen.add(keyText(st.getKeyNode()))) {
              out.add(st);
            }
          }
        }
      }
      return out;
    }
  }

  /**
   * Refuses nesting deeper than {@link #MAX_DEPTH} before the composer recurses into it, and a document (or a List
   * item read alone) longer than {@link InputText#MAX_DOCUMENT_CHARS} as soon as the parser passes the limit.
   */
  private static final class Limits implements Parser {
    private final Parser parser;
    private int depth;
    private int unitStart;
    private int unitLine = 1;
    private boolean unitIsItem;
    /** True once the current document has an anchor, an alias or a plain {@code <<} (what the full normaliser is for). */
    boolean shared;

    Limits(Parser parser) {
      this.parser = parser;
    }

    /** A new unit of the size limit starts at {@code e}: a List item, or the rest of a document after its items. */
    void beginUnit(Event e, boolean item) {
      unitStart = e.getStartMark().map(Mark::getIndex).orElse(unitStart);
      unitLine = e.getStartMark().map(m -> m.getLine() + 1).orElse(unitLine);
      unitIsItem = item;
    }

    @Override
    public boolean checkEvent(Event.ID id) {
      return parser.checkEvent(id);
    }

    @Override
    public Event peekEvent() {
      return parser.peekEvent();
    }

    @Override
    public boolean hasNext() {
      return parser.hasNext();
    }

    @Override
    public Event next() {
      Event e = parser.next();
      switch (e.getEventId()) {
        case DocumentStart -> {
          beginUnit(e, false);
          shared = false;
        }
        case Alias -> shared = true;
        case Scalar -> {
          org.snakeyaml.engine.v2.events.ScalarEvent scalar = (org.snakeyaml.engine.v2.events.ScalarEvent) e;
          if (scalar.getAnchor().isPresent() || (scalar.isPlain() && "<<".equals(scalar.getValue()))) {
            shared = true;
          }
        }
        default -> { }
      }
      switch (e.getEventId()) {
        case MappingStart, SequenceStart -> {
          if (((org.snakeyaml.engine.v2.events.NodeEvent) e).getAnchor().isPresent()) {
            shared = true;
          }
          if (++depth > MAX_DEPTH) {
            int line = e.getStartMark().map(Mark::getLine).orElse(-1) + 1;
            throw new TextInputException(line, "nested more than " + MAX_DEPTH + " levels deep (the limit of one document)");
          }
        }
        case MappingEnd, SequenceEnd -> depth--;
        default -> { }
      }
      int end = e.getEndMark().map(Mark::getIndex).orElse(unitStart);
      if (end - unitStart > InputText.MAX_DOCUMENT_CHARS) {
        throw new TextInputException(unitLine, (unitIsItem ? "List item" : "document") + " larger than "
            + InputText.maxDocumentSize() + " (" + InputText.MAX_DOCUMENT_CHARS + " characters), the limit of one"
            + " document or List item (the API server's limit for one request); split it into smaller documents");
      }
      return e;
    }
  }
}
