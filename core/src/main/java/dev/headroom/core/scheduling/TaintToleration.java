package dev.headroom.core.scheduling;

import java.util.Arrays;
import java.util.List;

/**
 * Spec §2.3 row 3: every NoSchedule or NoExecute taint of the node must be tolerated ({@link Tolerations}). Nodes
 * with equal filtering taints share a {@link CompiledNode#taintGroup()}, so the pre-filter state remembers the
 * answer per taint group: the class's tolerations are checked once per distinct taint set.
 */
final class TaintToleration implements Filter {

  /** The answer per taint group for one class: 0 not yet known, 1 tolerated, 2 not tolerated. */
  static final class State {
    private byte[] byGroup = new byte[8];

    byte get(int group) {
      return group < byGroup.length ? byGroup[group] : 0;
    }

    void set(int group, byte v) {
      if (group >= byGroup.length) {
        byGroup = Arrays.copyOf(byGroup, Math.max(group + 1, byGroup.length * 2));
      }
      byGroup[group] = v;
    }
  }

  @Override
  public String name() {
    return "TaintToleration";
  }

  @Override
  public List<Reason> reasons() {
    return List.of(Reason.UNTOLERATED_TAINT);
  }

  State preFilter(CompiledPod pod) {
    return new State();
  }

  @Override
  public Reason filter(CompiledPod pod, PreFilterState state, int index, CompiledNode node, NodeState aggregates, List<String> messages) {
    State st = state.taints;
    int group = node.taintGroup();
    byte t = st.get(group);
    if (t == 0) {
      t = Tolerations.untolerated(node, pod) == null ? (byte) 1 : (byte) 2;
      st.set(group, t);
    }
    if (t == 2) {
      Taint u = Tolerations.untolerated(node, pod);
      return Filter.fail(messages, Reason.UNTOLERATED_TAINT, Reason.UNTOLERATED_TAINT.message(u.key(), u.value()));
    }
    return null;
  }
}
