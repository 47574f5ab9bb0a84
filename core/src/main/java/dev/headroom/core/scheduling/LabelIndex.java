package dev.headroom.core.scheduling;

import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;

/**
 * The inverted label index of the node store: label key → value → the node indexes carrying it. Indexes are
 * positions and are reused after a revert, so the store unindexes a node's labels before it puts another node at
 * the same index, and a reader clips the answer to the store's node count and removed nodes.
 */
final class LabelIndex {

  private final Map<String, Map<String, BitSet>> byKey = new HashMap<>();

  /** Records {@code node}'s labels at {@code index}. */
  void add(CompiledNode node, int index) {
    for (Map.Entry<String, String> e : node.labels().entrySet()) {
      byKey.computeIfAbsent(e.getKey(), k -> new HashMap<>()).computeIfAbsent(e.getValue(), v -> new BitSet()).set(index);
    }
  }

  /** Forgets {@code node}'s labels at {@code index}. */
  void remove(CompiledNode node, int index) {
    for (Map.Entry<String, String> e : node.labels().entrySet()) {
      Map<String, BitSet> byValue = byKey.get(e.getKey());
      if (byValue != null && byValue.get(e.getValue()) != null) {
        byValue.get(e.getValue()).clear(index);
      }
    }
  }

  /** The indexes with label {@code key=value}, or null when none ever had it (the index's own set: do not change it). */
  BitSet get(String key, String value) {
    Map<String, BitSet> byValue = byKey.get(key);
    return byValue == null ? null : byValue.get(value);
  }

  /**
   * The indexes below {@code nodeCount} carrying every label of {@code selector} (a new set). A key or value no node
   * ever had gives the empty set.
   */
  BitSet matchingAll(Map<String, String> selector, int nodeCount) {
    BitSet candidates = new BitSet();
    candidates.set(0, nodeCount);
    for (Map.Entry<String, String> e : selector.entrySet()) {
      BitSet b = get(e.getKey(), e.getValue());
      if (b == null) {
        candidates.clear();
        break;
      }
      candidates.and(b);
    }
    return candidates;
  }
}
