package dev.headroom.core.scheduling;

import io.fabric8.kubernetes.api.model.Node;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A node compiled once for scheduling simulation by {@link SchedulingCompiler#compile(Node)}:
 * allocatable as a dense milli-unit vector, interned labels, the filtering taints (NoSchedule and
 * NoExecute) and the unschedulable flag. The fabric8 node stays reachable for reporting.
 *
 * <p>Template copies ({@link #copyAs(String)}) share the allocatable vector, taints and fabric8 object
 * with their template (copy-on-write: only the name and the {@code kubernetes.io/hostname} label differ),
 * so adding thousands of copies of a node-group template is cheap.
 */
public final class CompiledNode {

  /** The label that carries the node's hostname. */
  public static final String HOSTNAME_LABEL = "kubernetes.io/hostname";

  private final Node node;
  private final String name;
  private final Map<String, String> labels;
  private final long[] allocatable;
  private final long maxPods;
  private final boolean unschedulable;
  private final List<Taint> taints;
  private final int taintGroup;
  private final CompiledNode template;

  CompiledNode(
      Node node,
      String name,
      Map<String, String> labels,
      long[] allocatable,
      long maxPods,
      boolean unschedulable,
      List<Taint> taints,
      int taintGroup,
      CompiledNode template) {
    this.node = node;
    this.name = name;
    this.labels = labels;
    this.allocatable = allocatable;
    this.maxPods = maxPods;
    this.unschedulable = unschedulable;
    this.taints = taints;
    this.taintGroup = taintGroup;
    this.template = template;
  }

  /**
   * A copy of this node named {@code newName}, with {@code kubernetes.io/hostname} set to the new name
   * (when the template had the label, or always for templates: a new node always gets a hostname).
   * Everything else is shared.
   */
  public CompiledNode copyAs(String newName) {
    Map<String, String> l = new HashMap<>(labels);
    l.put(HOSTNAME_LABEL, newName);
    return new CompiledNode(
        node, newName, Map.copyOf(l), allocatable, maxPods, unschedulable, taints, taintGroup, origin());
  }

  /**
   * A copy of this node named {@code newName} without a {@code kubernetes.io/hostname} label: it stands for a
   * topology domain new nodes may open, and counts for no hostname-keyed constraint.
   */
  CompiledNode domainStandIn(String newName) {
    Map<String, String> l = new HashMap<>(labels);
    l.remove(HOSTNAME_LABEL);
    return new CompiledNode(
        node, newName, Map.copyOf(l), allocatable, maxPods, unschedulable, taints, taintGroup, origin());
  }

  /** The fabric8 node (for a template copy: the template's). */
  public Node node() {
    return node;
  }

  /** Node name. */
  public String name() {
    return name;
  }

  /** Unmodifiable labels. */
  public Map<String, String> labels() {
    return labels;
  }

  /** Allocatable amount of resource {@code id} in milli-units (0 when absent). */
  public long allocatable(int id) {
    return id < allocatable.length ? allocatable[id] : 0;
  }

  /** Allocatable pod count ({@code status.allocatable.pods}; unlimited when the node reports none). */
  public long maxPods() {
    return maxPods;
  }

  /** {@code spec.unschedulable}. */
  public boolean unschedulable() {
    return unschedulable;
  }

  /** The taints that filter (NoSchedule, NoExecute). */
  public List<Taint> taints() {
    return taints;
  }

  /** Index of this node's filtering-taint set in the compiler's taint-set table (equal sets, equal IDs). */
  public int taintGroup() {
    return taintGroup;
  }

  /** The node this one was copied from, or this node. */
  public CompiledNode origin() {
    return template == null ? this : template;
  }

  @Override
  public String toString() {
    return name;
  }
}
