package dev.headroom.core.scheduling;

import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntPredicate;

/**
 * The placement memos of a {@link ClusterSnapshot} (spec §2.4): a layer over the filters that makes a scan skip the
 * nodes an equivalence class already failed on, with the same answer as a scan that runs every filter on every node
 * (the snapshot's plain path; {@code EquivalenceAgainstNaiveTest} runs both against a naive reference).
 *
 * <ul>
 *   <li>A <em>class memo</em> holds the nodes where a class (pods of one {@link CompiledPod#classId()}) failed for a
 *       {@linkplain Reason.Durability STATIC or MONOTONE} reason; a pod removal drops every MONOTONE entry (an
 *       anti-affinity count is domain-wide), STATIC ones stay. On its first contact a class with a
 *       {@code nodeSelector} starts with the nodes outside the selector's {@link LabelIndex} intersection.
 *   <li>A <em>shape memo</em> holds the nodes where NodeResourcesFit failed for some class with exactly the same
 *       requests (whether a node has room depends on the requests alone); a removal clears it on its own node only.
 * </ul>
 *
 * <p>Memos are layered like the node store: the snapshot's fork, revert and commit call {@link #fork()},
 * {@link #revert()} and {@link #commit()}, and a layer copies a memo from below on its first write.
 */
final class PlacementMemos {

  /** The first failing filter's reason on node {@code index}, or null (the snapshot's filters for one pod). */
  interface NodeCheck {
    Reason failure(int index);
  }

  /** Failed nodes of one equivalence class (or request shape) in one layer. */
  private static final class Memo {
    BitSet failed;
    BitSet staticFailed;
    /** Holds node-local failures only (a shape memo): a removal frees room on its own node and nowhere else. */
    final boolean nodeLocal;

    Memo(BitSet failed, BitSet staticFailed, boolean nodeLocal) {
      this.failed = failed;
      this.staticFailed = staticFailed;
      this.nodeLocal = nodeLocal;
    }

    /** A pod left node {@code index}: monotone failures no longer hold (anti-affinity ones anywhere in its domains). */
    void dropMonotone(int index) {
      if (nodeLocal) {
        failed.clear(index);
      } else {
        failed = (BitSet) staticFailed.clone();
      }
    }

    /** Pods left the nodes in {@code from}. */
    void dropMonotone(BitSet from) {
      if (nodeLocal) {
        failed.andNot(from);
      } else {
        failed = (BitSet) staticFailed.clone();
      }
    }
  }

  /** One layer's memos, keyed by class id (shapes under {@code -1 - shapeId}), and the removals made in it. */
  private static final class Layer {
    final Layer parent;
    boolean hadRemoval;
    /** Nodes pods were removed from in this layer (null until the first removal). */
    BitSet removedFrom;
    final HashMap<Integer, Memo> memos = new HashMap<>();

    Layer(Layer parent) {
      this.parent = parent;
    }
  }

  private record RequestShape(long[] idsAndAmounts) {
    @Override
    public boolean equals(Object o) {
      return o instanceof RequestShape r && Arrays.equals(idsAndAmounts, r.idsAndAmounts);
    }

    @Override
    public int hashCode() {
      return Arrays.hashCode(idsAndAmounts);
    }
  }

  private final LabelIndex labels;
  private final IntBoxes boxes = new IntBoxes();
  private final HashMap<RequestShape, Integer> shapeIds = new HashMap<>();
  private int[] classShapes = new int[64];
  private Layer top = new Layer(null);

  PlacementMemos(LabelIndex labels) {
    this.labels = labels;
  }

  // ---------------------------------------------------------------- layers

  void fork() {
    top = new Layer(top);
  }

  void revert() {
    top = top.parent;
  }

  /** Folds the top layer into its parent. */
  void commit() {
    Layer c = top;
    Layer p = c.parent;
    if (c.hadRemoval) {
      for (Memo m : p.memos.values()) {
        m.dropMonotone(c.removedFrom);
      }
      p.hadRemoval = true;
      if (p.removedFrom == null) {
        p.removedFrom = new BitSet();
      }
      p.removedFrom.or(c.removedFrom);
    }
    p.memos.putAll(c.memos);
    top = p;
  }

  /** Forgets the top layer's memos (a node changed in place: its remembered failures were for the old version). */
  void clear() {
    top.memos.clear();
  }

  /** A pod left node {@code index}. */
  void podRemoved(int index) {
    top.hadRemoval = true;
    if (top.removedFrom == null) {
      top.removedFrom = new BitSet();
    }
    top.removedFrom.set(index);
    for (Memo m : top.memos.values()) {
      m.dropMonotone(index);
    }
  }

  // ---------------------------------------------------------------- classes and shapes

  /** First contact of {@code pod}'s class: its request shape gets an id (equal request vectors, equal ids). */
  void addClass(CompiledPod pod) {
    int id = pod.classId();
    if (id >= classShapes.length) {
      classShapes = Arrays.copyOf(classShapes, Math.max(id + 1, classShapes.length * 2));
    }
    int[] ids = pod.requestIds();
    long[] req = pod.requestVector();
    long[] key = new long[ids.length * 2];
    for (int k = 0; k < ids.length; k++) {
      key[2 * k] = ids[k];
      key[2 * k + 1] = req[ids[k]];
    }
    classShapes[id] = shapeIds.computeIfAbsent(new RequestShape(key), k -> shapeIds.size());
  }

  // ---------------------------------------------------------------- the memoised scan

  /**
   * The first node in {@code [start, to)}, then {@code [from, start)}, that is not in {@code removed}, passes
   * {@code check} and is accepted, or -1; every STATIC or MONOTONE failure met on the way is remembered for the pod's
   * class (and NodeResourcesFit's for its shape). Nodes remembered as failed are skipped without a check.
   * {@code nodeCount} is the store's, for a class's first contact.
   */
  int firstFit(
      CompiledPod pod, int from, int start, int to, int nodeCount, BitSet removed, IntPredicate acceptable, NodeCheck check) {
    return firstFit(pod, from, start, to, nodeCount, removed, acceptable, check, null);
  }

  /**
   * As above; with {@code spreadDomain} (the pod's spread constraints all on one topology key: node index → its domain
   * of that key, -1 without the label), a node whose domain already failed PodTopologySpread in this placement is
   * skipped without a check. Exact: for a node in the snapshot the spread verdict depends on the node's domain and the
   * counters only, and the snapshot does not change during one placement, so such a node fails too, whatever filter
   * fails first on it. (Not a memo: spread failures are VOLATILE, so nothing is kept beyond the placement.)
   */
  int firstFit(CompiledPod pod, int from, int start, int to, int nodeCount, BitSet removed, IntPredicate acceptable,
      NodeCheck check, java.util.function.IntUnaryOperator spreadDomain) {
    Memo memo = memoForWrite(boxes.of(pod.classId()), pod, nodeCount);
    SpreadSkip skip = spreadDomain == null ? null : new SpreadSkip(spreadDomain);
    int found = scan(pod, memo, start, to, removed, acceptable, check, skip);
    if (found < 0 && start > from) {
      found = scan(pod, memo, from, start, removed, acceptable, check, skip);
    }
    return found;
  }

  /** The domains of one spread key that failed PodTopologySpread during one placement. */
  private static final class SpreadSkip {
    final java.util.function.IntUnaryOperator domainOf;
    final BitSet failed = new BitSet();
    boolean missingFailed;

    SpreadSkip(java.util.function.IntUnaryOperator domainOf) {
      this.domainOf = domainOf;
    }

    boolean skips(int d) {
      return d >= 0 ? failed.get(d) : missingFailed;
    }

    void fail(int d) {
      if (d >= 0) {
        failed.set(d);
      } else {
        missingFailed = true;
      }
    }
  }

  private int scan(CompiledPod pod, Memo memo, int from, int to, BitSet removed, IntPredicate acceptable, NodeCheck check,
      SpreadSkip skip) {
    BitSet shapeFailed = memoForWrite(boxes.of(-1 - classShapes[pod.classId()]), null, 0).failed;
    NodeFilter refusals = acceptable instanceof NodeFilter f ? f : null;
    for (int i = memo.failed.nextClearBit(from); i < to; i = memo.failed.nextClearBit(i + 1)) {
      if (removed != null && removed.get(i)) {
        continue;
      }
      if (refusals != null && refusals.knownToRefuse(i)) {
        // the caller refuses it whatever the predicates say (not remembered: another caller may accept it)
        continue;
      }
      if (shapeFailed.get(i)) {
        // another class with the same requests found the node short of room, and no pod left since
        memo.failed.set(i);
        continue;
      }
      int domain = skip == null ? 0 : skip.domainOf.applyAsInt(i);
      if (skip != null && skip.skips(domain)) {
        continue;
      }
      // filters first: most nodes a scan visits fail them, and a failure is remembered for the class
      // whatever the caller accepts; the first node that passes and is accepted is the same either way
      Reason r = check.failure(i);
      if (skip != null && (r == Reason.TOPOLOGY_SPREAD || r == Reason.TOPOLOGY_SPREAD_MISSING_LABEL)) {
        skip.fail(domain);
      }
      if (r == null) {
        if (acceptable == null || acceptable.test(i)) {
          return i;
        }
        continue;
      }
      if (r == Reason.INSUFFICIENT_RESOURCE || r == Reason.TOO_MANY_PODS) {
        shapeFailed.set(i);
      }
      if (r.durability() != Reason.Durability.VOLATILE) {
        memo.failed.set(i);
        if (r.durability() == Reason.Durability.STATIC) {
          memo.staticFailed.set(i);
        }
      }
    }
    return -1;
  }

  /** The top layer's memo under {@code key}, copied from below (minus what removals since then undo) or new. */
  private Memo memoForWrite(Integer key, CompiledPod prefilterFor, int nodeCount) {
    Memo own = top.memos.get(key);
    if (own != null) {
      return own;
    }
    boolean nodeLocal = key < 0;
    boolean removalSince = top.hadRemoval;
    Memo m = null;
    for (Layer l = top.parent; l != null; l = l.parent) {
      Memo found = l.memos.get(key);
      if (found != null) {
        BitSet st = (BitSet) found.staticFailed.clone();
        if (!removalSince) {
          m = new Memo((BitSet) found.failed.clone(), st, nodeLocal);
        } else if (nodeLocal) {
          BitSet failed = (BitSet) found.failed.clone();
          for (Layer above = top; above != l; above = above.parent) {
            if (above.removedFrom != null) {
              failed.andNot(above.removedFrom);
            }
          }
          m = new Memo(failed, st, true);
        } else {
          m = new Memo((BitSet) st.clone(), st, false);
        }
        break;
      }
      removalSince |= l.hadRemoval;
    }
    if (m == null) {
      m = new Memo(new BitSet(), new BitSet(), nodeLocal);
      if (prefilterFor != null) {
        prefilterBySelector(prefilterFor, m, nodeCount);
      }
    }
    top.memos.put(key, m);
    return m;
  }

  /**
   * First contact of a class with this snapshot: the nodes outside the intersection of the label-index
   * bitsets of its {@code nodeSelector} fail NodeAffinity (a STATIC failure) without a per-node check.
   */
  private void prefilterBySelector(CompiledPod pod, Memo m, int nodeCount) {
    Map<String, String> selector = pod.nodeAffinity().nodeSelector();
    if (selector.isEmpty() || nodeCount == 0 || !pod.isSupported()) {
      return;
    }
    BitSet candidates = labels.matchingAll(selector, nodeCount);
    BitSet failing = new BitSet();
    failing.set(0, nodeCount);
    failing.andNot(candidates);
    // Earlier filters (unschedulable, nodeName, taints) may fail first on these nodes; all of them are
    // STATIC too, so the memo entry is the same whichever static filter would be reported.
    m.failed.or(failing);
    m.staticFailed.or(failing);
  }
}
