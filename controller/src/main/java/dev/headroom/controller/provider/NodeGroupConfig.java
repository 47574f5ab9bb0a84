package dev.headroom.controller.provider;

import dev.headroom.core.input.InputText;
import dev.headroom.core.input.TextInputException;
import dev.headroom.core.input.YamlLoader;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import dev.headroom.core.nodegroup.NodeGroupFormatException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.snakeyaml.engine.v2.exceptions.Mark;
import org.snakeyaml.engine.v2.nodes.MappingNode;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.NodeTuple;
import org.snakeyaml.engine.v2.nodes.ScalarNode;
import org.snakeyaml.engine.v2.nodes.SequenceNode;

/**
 * Loads {@code headroom.dev/v1alpha1 NodeGroup} documents (multi-document YAML, from a file or a ConfigMap key)
 * for the KWOK-style provider. Errors name the source and line: {@code FILE:LINE: what is wrong}.
 */
public final class NodeGroupConfig {

  /** ConfigMap that holds the node groups when no file is given. */
  public static final String CONFIG_MAP_NAME = "headroom-node-groups";
  /** Key of the ConfigMap entry. */
  public static final String CONFIG_MAP_KEY = "nodegroups.yaml";

  private NodeGroupConfig() {}

  /** A malformed node-group source; the message is {@code SOURCE:LINE: what is wrong}. */
  public static final class InvalidNodeGroupsException extends RuntimeException {
    public InvalidNodeGroupsException(String message) {
      super(message);
    }
  }

  /** Reads and parses a file. */
  public static List<NodeGroup> load(Path file) {
    String text;
    try {
      if (Files.isDirectory(file)) {
        throw new InvalidNodeGroupsException(file + ":1: cannot read node groups: is a directory");
      }
      text = InputText.decode(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new InvalidNodeGroupsException(file + ":1: cannot read node groups: " + InputText.whyUnreadable(e));
    } catch (TextInputException e) {
      throw new InvalidNodeGroupsException(file + ":" + Math.max(1, e.line()) + ": " + e.getMessage());
    }
    return parse(file.toString(), text);
  }

  /**
   * Parses every {@code NodeGroup} document of {@code text}; other documents and empty ones are errors, group
   * ids must be unique.
   *
   * @param source the name used in error messages (a file path or {@code configmap/NS/NAME})
   */
  public static List<NodeGroup> parse(String source, String text) {
    List<Node> trees;
    try {
      trees = YamlLoader.compose(source, text);
    } catch (TextInputException e) {
      throw new InvalidNodeGroupsException(source + ":" + Math.max(1, e.line()) + ": "
          + e.getMessage().replaceFirst("^YAML (syntax )?error: ", "invalid YAML: "));
    }
    List<Object> docs = new ArrayList<>();
    for (Node t : trees) {
      docs.add(YamlLoader.plain(t, null));
    }
    List<NodeGroup> groups = new ArrayList<>();
    Set<String> ids = new HashSet<>();
    for (int i = 0; i < docs.size(); i++) {
      Object doc = docs.get(i);
      Node tree = i < trees.size() ? trees.get(i) : null;
      int docLine = tree == null ? 1 : line(tree);
      if (doc == null) {
        continue;
      }
      if (!(doc instanceof Map<?, ?> map)) {
        throw new InvalidNodeGroupsException(source + ":" + docLine + ": a NodeGroup document must be a mapping");
      }
      @SuppressWarnings("unchecked")
      Map<String, ?> typed = (Map<String, ?>) map;
      NodeGroup g;
      try {
        g = NodeGroupDocument.parse(typed);
      } catch (NodeGroupFormatException e) {
        int line = tree == null ? docLine : find(tree, e.path()).map(NodeGroupConfig::line).orElse(docLine);
        throw new InvalidNodeGroupsException(source + ":" + line + ": " + e.getMessage());
      }
      if (!ids.add(g.id())) {
        int line = tree == null ? docLine : find(tree, "metadata.name").map(NodeGroupConfig::line).orElse(docLine);
        throw new InvalidNodeGroupsException(source + ":" + line + ": duplicate node group \"" + g.id() + "\"");
      }
      groups.add(g);
    }
    if (groups.isEmpty()) {
      throw new InvalidNodeGroupsException(source + ":1: no NodeGroup documents found");
    }
    return List.copyOf(groups);
  }

  private static int line(Node n) {
    return n.getStartMark().map(Mark::getLine).orElse(0) + 1;
  }

  /**
   * The node at a dotted path ({@code spec.template.status.capacity.cpu}, {@code spec.template.spec.taints[0].effect});
   * keys containing dots are matched greedily. Falls back to the deepest node found.
   */
  static Optional<Node> find(Node root, String path) {
    if (path == null || path.isEmpty()) {
      return Optional.of(root);
    }
    Node current = root;
    String rest = path;
    while (!rest.isEmpty()) {
      if (rest.startsWith("[") && current instanceof SequenceNode seq) {
        int end = rest.indexOf(']');
        if (end < 0) {
          break;
        }
        int idx;
        try {
          idx = Integer.parseInt(rest.substring(1, end));
        } catch (NumberFormatException e) {
          break;
        }
        if (idx < 0 || idx >= seq.getValue().size()) {
          break;
        }
        current = seq.getValue().get(idx);
        rest = strip(rest.substring(end + 1));
        continue;
      }
      if (!(current instanceof MappingNode mapping)) {
        break;
      }
      NodeTuple best = null;
      int bestLength = -1;
      for (NodeTuple t : mapping.getValue()) {
        if (t.getKeyNode() instanceof ScalarNode key) {
          String k = key.getValue();
          boolean matches = rest.equals(k) || rest.startsWith(k + ".") || rest.startsWith(k + "[");
          if (matches && k.length() > bestLength) {
            best = t;
            bestLength = k.length();
          }
        }
      }
      if (best == null) {
        break;
      }
      rest = strip(rest.substring(bestLength));
      current = rest.isEmpty() ? best.getKeyNode() : best.getValueNode();
      if (rest.isEmpty()) {
        // Point at the value when it is a scalar on the same line, otherwise at the key.
        Node value = best.getValueNode();
        current = value instanceof ScalarNode ? value : best.getKeyNode();
      }
    }
    return Optional.of(current);
  }

  private static String strip(String s) {
    return s.startsWith(".") ? s.substring(1) : s;
  }
}
