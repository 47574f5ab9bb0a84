package dev.headroom.cli;

import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.provisioning.ProvisioningRequests;
import dev.headroom.core.autoscaler.IterationResult.BufferOutcome;
import dev.headroom.core.autoscaler.IterationResult.PendingPods;
import dev.headroom.core.autoscaler.IterationResult.ScaleDownDecision;
import dev.headroom.core.autoscaler.IterationResult.ScaleUpDecision;
import dev.headroom.core.autoscaler.IterationResult.UnneededNode;
import dev.headroom.core.autoscaler.IterationResult.UnremovableNode;
import dev.headroom.core.autoscaler.IterationResult.UnschedulablePod;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The output of {@code headroom plan}: the iteration result as an ordered JSON tree ({@link #tree}) or a readable
 * summary ({@link #text}). Both list the same facts in the same order; virtual pods never appear among the
 * unschedulable pods (the iteration reports them on their buffers).
 */
final class PlanReport {

  /** JSON field names tests and scripts depend on. */
  static final String NOW = "now";
  static final String EXPANDER = "expander";
  static final String SCALE_UP_RESULT = "scaleUpResult";
  static final String SCALE_UP = "scaleUp";
  static final String PENDING_PODS = "pendingPods";
  static final String BUFFERS = "buffers";
  static final String UNSCHEDULABLE_PODS = "unschedulablePods";
  static final String POD_GROUPS = "podGroups";
  static final String SCALE_DOWN = "scaleDown";
  static final String UNNEEDED_NODES = "unneededNodes";
  static final String UNREMOVABLE_NODES = "unremovableNodes";
  /** Present only when the input has ProvisioningRequests. */
  static final String PROVISIONING_REQUESTS = "provisioningRequests";
  /** Present only when the iteration kept standby capacity ({@code --standby-capacity} and a group with spec.standby). */
  static final String STANDBY = "standby";

  private PlanReport() {}

  /** The JSON tree: maps in a fixed key order, lists in the iteration's order. */
  static Map<String, Object> tree(IterationResult r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(NOW, r.now().toString());
    out.put(EXPANDER, r.expander());
    out.put(SCALE_UP_RESULT, r.scaleUpResult().name());
    List<Object> up = new ArrayList<>();
    for (ScaleUpDecision d : r.scaleUp()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("nodeGroup", d.nodeGroup());
      m.put("delta", d.delta());
      m.put("currentSize", d.currentSize());
      m.put("newTargetSize", d.newTargetSize());
      m.put("maxSize", d.maxSize());
      m.put("realPods", d.realPods());
      m.put("virtualPods", d.virtualPods());
      up.add(m);
    }
    out.put(SCALE_UP, up);
    PendingPods p = r.pendingPods();
    Map<String, Object> pending = new LinkedHashMap<>();
    pending.put("total", p.total());
    pending.put("onExistingNodes", p.onExistingNodes());
    pending.put("onUpcomingNodes", p.onUpcomingNodes());
    pending.put("onNewNodes", p.onNewNodes());
    pending.put("unschedulable", p.unschedulable());
    pending.put("gated", r.notDemand().gated());
    pending.put("notYetTried", r.notDemand().notYetTried());
    out.put(PENDING_PODS, pending);
    List<Object> buffers = new ArrayList<>();
    for (BufferOutcome b : r.buffers()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", b.namespace());
      m.put("name", b.name());
      m.put("virtualPods", b.virtualPods());
      m.put("onExistingNodes", b.onExistingNodes());
      m.put("onUpcomingNodes", b.onUpcomingNodes());
      m.put("onNewNodes", b.onNewNodes());
      m.put("unschedulable", b.unschedulable());
      m.put("conditions", conditions(b.conditions()));
      Map<String, Object> room = new LinkedHashMap<>();
      room.put("pooled", b.freeRoom().pooled());
      room.put("onNodes", b.freeRoom().onNodes());
      room.put("fragmented", b.freeRoom().fragmented());
      m.put("freeRoom", room);
      buffers.add(m);
    }
    out.put(BUFFERS, buffers);
    List<Object> unschedulable = new ArrayList<>();
    for (UnschedulablePod u : r.unschedulablePods()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("namespace", u.namespace());
      m.put("name", u.name());
      m.put("reason", u.reason());
      unschedulable.add(m);
    }
    out.put(UNSCHEDULABLE_PODS, unschedulable);
    List<Object> groups = new ArrayList<>();
    for (IterationResult.PodGroupOutcome g : r.podGroups()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("source", g.source());
      m.put("namespace", g.namespace());
      m.put("name", g.name());
      m.put("minMember", g.minMember());
      m.put("members", g.members());
      m.put("running", g.running());
      m.put("placed", g.placed());
      m.put("status", g.status());
      m.put("limit", g.limit());
      groups.add(m);
    }
    out.put(POD_GROUPS, groups);
    List<Object> down = new ArrayList<>();
    for (ScaleDownDecision d : r.scaleDown()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", d.node());
      m.put("nodeGroup", d.nodeGroup());
      m.put("reason", d.reason());
      m.put("utilization", round(d.utilization()));
      m.put("podsToReschedule", d.podsToReschedule());
      down.add(m);
    }
    out.put(SCALE_DOWN, down);
    List<Object> unneeded = new ArrayList<>();
    for (UnneededNode u : r.unneededNodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", u.node());
      m.put("nodeGroup", u.nodeGroup());
      m.put("since", u.since().toString());
      m.put("empty", u.empty());
      m.put("utilization", round(u.utilization()));
      unneeded.add(m);
    }
    out.put(UNNEEDED_NODES, unneeded);
    List<Object> unremovable = new ArrayList<>();
    for (UnremovableNode u : r.unremovableNodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("node", u.node());
      m.put("reason", u.reason());
      m.put("detail", u.detail());
      unremovable.add(m);
    }
    out.put(UNREMOVABLE_NODES, unremovable);
    if (!r.standbyGroups().isEmpty() || !r.standbyBuffers().isEmpty()) {
      Map<String, Object> standby = new LinkedHashMap<>();
      List<Object> groups2 = new ArrayList<>();
      for (IterationResult.StandbyGroup g : r.standbyGroups()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("nodeGroup", g.nodeGroup());
        m.put("previousTarget", g.previousTarget());
        m.put("target", g.target());
        m.put("suspended", g.suspended());
        m.put("preparing", g.preparing());
        m.put("chunks", g.chunks());
        groups2.add(m);
      }
      standby.put("nodeGroups", groups2);
      List<Object> buffers2 = new ArrayList<>();
      for (IterationResult.StandbyBuffer b : r.standbyBuffers()) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("namespace", b.namespace());
        m.put("name", b.name());
        m.put("nodeGroup", b.nodeGroup());
        m.put("chunks", b.chunks());
        m.put("kept", b.kept());
        m.put("conditions", conditions(b.conditions()));
        buffers2.add(m);
      }
      standby.put("buffers", buffers2);
      out.put(STANDBY, standby);
    }
    return out;
  }

  /** {@link #tree(IterationResult)} and each ProvisioningRequest's part in the iteration, when there are any. */
  static Map<String, Object> tree(IterationResult r, List<ProvisioningRequests.Decision> requests) {
    Map<String, Object> out = tree(r);
    if (!requests.isEmpty()) {
      List<Object> list = new ArrayList<>();
      for (ProvisioningRequests.Decision d : requests) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("request", d.key());
        m.put("provisioningClassName", d.className());
        m.put("action", d.action().name());
        m.put("detail", d.detail());
        m.put("conditions", conditions(d.changed()));
        list.add(m);
      }
      out.put(PROVISIONING_REQUESTS, list);
    }
    return out;
  }

  /** {@link #text(IterationResult)} and a ProvisioningRequests section, when there are any. */
  static String text(IterationResult r, List<ProvisioningRequests.Decision> requests) {
    StringBuilder sb = new StringBuilder(text(r));
    if (!requests.isEmpty()) {
      String nl = System.lineSeparator();
      sb.append(nl).append("ProvisioningRequests:").append(nl);
      for (ProvisioningRequests.Decision d : requests) {
        sb.append("  ").append(d.key()).append(" (").append(d.className()).append("): ").append(describe(d)).append(nl);
        appendConditions(sb, d.changed(), nl);
      }
    }
    return sb.toString();
  }

  private static String describe(ProvisioningRequests.Decision d) {
    String what = switch (d.action()) {
      case UNSUPPORTED -> "ignored";
      case DONE -> "done";
      case BOOKED -> "provisioned, capacity booked";
      case BACKED_OFF -> "waiting for its retry";
      case WAITING -> "waiting (one request is taken up per loop)";
      case DECIDED -> "decided";
      case SCALING_UP -> "scaled up for all-or-nothing";
      case INVALID -> "its pods cannot be made";
    };
    return d.detail().isEmpty() ? what : what + " (" + d.detail() + ")";
  }

  /** The readable summary. */
  static String text(IterationResult r) {
    StringBuilder sb = new StringBuilder();
    String nl = System.lineSeparator();
    sb.append("Plan at ").append(r.now()).append(" (expander ").append(r.expander()).append("): ").append(r.scaleUpResult()).append(nl);
    sb.append(nl).append("Scale-up:").append(nl);
    if (r.scaleUp().isEmpty()) {
      sb.append("  none").append(nl);
    }
    for (ScaleUpDecision d : r.scaleUp()) {
      sb.append(String.format(Locale.ROOT, "  %s: +%d nodes, %d -> %d (max %d), for %d pending and %d virtual pods%n",
          d.nodeGroup(), d.delta(), d.currentSize(), d.newTargetSize(), d.maxSize(), d.realPods(), d.virtualPods()));
    }
    PendingPods p = r.pendingPods();
    sb.append(nl).append(String.format(Locale.ROOT,
        "Pending pods: %d (%d fit existing nodes, %d upcoming nodes, %d new nodes; %d unschedulable)%n",
        p.total(), p.onExistingNodes(), p.onUpcomingNodes(), p.onNewNodes(), p.unschedulable()));
    for (UnschedulablePod u : r.unschedulablePods()) {
      sb.append("  ").append(u.namespace()).append('/').append(u.name()).append(": ").append(u.reason()).append(nl);
    }
    sb.append("Not demand: ").append(r.notDemand().describe()).append(nl);
    if (!r.podGroups().isEmpty()) {
      sb.append(nl).append("Pod groups (all-or-nothing):").append(nl);
    }
    for (IterationResult.PodGroupOutcome g : r.podGroups()) {
      sb.append(String.format(Locale.ROOT, "  %s/%s (%s, minMember %d): %s, %d of %d members placed (%d running)",
          g.namespace(), g.name(), g.source(), g.minMember(), g.status(), g.placed(), g.members(), g.running()));
      if (!g.limit().isEmpty()) {
        sb.append("; none requested: ").append(g.limit());
      }
      sb.append(nl);
    }
    sb.append(nl).append("Buffers:").append(nl);
    if (r.buffers().isEmpty()) {
      sb.append("  none").append(nl);
    }
    for (BufferOutcome b : r.buffers()) {
      sb.append(String.format(Locale.ROOT, "  %s/%s: %d virtual pods (%d on existing nodes, %d upcoming, %d new; %d unschedulable)%n",
          b.namespace(), b.name(), b.virtualPods(), b.onExistingNodes(), b.onUpcomingNodes(), b.onNewNodes(), b.unschedulable()));
      sb.append(String.format(Locale.ROOT, "    free room of existing nodes: %d chunks in total, %d on single nodes (%d lost to fragmentation)%n",
          b.freeRoom().pooled(), b.freeRoom().onNodes(), b.freeRoom().fragmented()));
      appendConditions(sb, b.conditions(), nl);
    }
    if (!r.standbyGroups().isEmpty() || !r.standbyBuffers().isEmpty()) {
      sb.append(nl).append("Standby capacity:").append(nl);
      for (IterationResult.StandbyGroup g : r.standbyGroups()) {
        sb.append(String.format(Locale.ROOT, "  %s: standby target %d -> %d (%d suspended, %d preparing), for %d chunks%n",
            g.nodeGroup(), g.previousTarget(), g.target(), g.suspended(), g.preparing(), g.chunks()));
      }
      for (IterationResult.StandbyBuffer b : r.standbyBuffers()) {
        sb.append(String.format(Locale.ROOT, "  %s/%s: %d of %d chunks kept%s%n", b.namespace(), b.name(), b.kept(), b.chunks(),
            b.nodeGroup() == null ? "" : " on " + b.nodeGroup()));
        appendConditions(sb, b.conditions(), nl);
      }
    }
    sb.append(nl).append("Scale-down:").append(nl);
    if (r.scaleDown().isEmpty()) {
      sb.append("  none").append(nl);
    }
    for (ScaleDownDecision d : r.scaleDown()) {
      sb.append(String.format(Locale.ROOT, "  remove %s (%s): %s, utilization %.2f", d.node(), d.nodeGroup(), d.reason(), d.utilization()));
      if (!d.podsToReschedule().isEmpty()) {
        sb.append(", reschedules ").append(String.join(", ", d.podsToReschedule()));
      }
      sb.append(nl);
    }
    List<UnneededNode> waiting = new ArrayList<>();
    for (UnneededNode u : r.unneededNodes()) {
      if (r.scaleDown().stream().noneMatch(d -> d.node().equals(u.node()))) {
        waiting.add(u);
      }
    }
    for (UnneededNode u : waiting) {
      sb.append("  unneeded since ").append(u.since()).append(": ").append(u.node()).append(" (").append(u.nodeGroup()).append(')').append(nl);
    }
    for (UnremovableNode u : r.unremovableNodes()) {
      sb.append("  keep ").append(u.node()).append(": ").append(u.reason());
      if (!u.detail().isEmpty()) {
        sb.append(" (").append(u.detail()).append(')');
      }
      sb.append(nl);
    }
    return sb.toString();
  }

  private static List<Object> conditions(List<Condition> list) {
    List<Object> conditions = new ArrayList<>();
    for (Condition c : list) {
      Map<String, Object> cm = new LinkedHashMap<>();
      cm.put("type", c.getType());
      cm.put("status", c.getStatus());
      cm.put("reason", c.getReason());
      cm.put("message", c.getMessage());
      cm.put("observedGeneration", c.getObservedGeneration());
      cm.put("lastTransitionTime", c.getLastTransitionTime());
      conditions.add(cm);
    }
    return conditions;
  }

  private static void appendConditions(StringBuilder sb, List<Condition> list, String nl) {
    for (Condition c : list) {
      sb.append("    ").append(c.getType()).append('=').append(c.getStatus()).append(' ').append(c.getReason());
      if (c.getMessage() != null && !c.getMessage().isEmpty()) {
        sb.append(": ").append(c.getMessage());
      }
      sb.append(nl);
    }
  }

  private static double round(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
