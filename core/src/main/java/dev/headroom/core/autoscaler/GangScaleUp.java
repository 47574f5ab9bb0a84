package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.autoscaler.IterationResult.PodGroupOutcome;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * All-or-nothing scale-up (issue #19) as a layer around the scale-up step, whatever the step does inside: the step
 * is first run as a trial (actuation and events held back, the loop's state put back afterwards); a group whose
 * members would get fewer than {@code minMember} placements on existing, upcoming and new nodes together (members
 * already running count) is taken out, with the limit that stopped it, and the trial runs again without it (when several
 * are short, the one whose first member comes last in pending order goes first). At most one more trial than there
 * are groups; then the step runs for real over the pods that are left.
 */
final class GangScaleUp {

  /** The scale-up step over the given pending real and virtual pods. */
  interface Step {
    Autoscaler.ScaleUpOutcome run(List<Pod> real, List<Pod> virtual);
  }

  /** The iteration's side of the layer. */
  interface Context {
    /** Runs {@code body} as a trial: no actuation, no events, the loop's state as before afterwards. */
    <T> T trial(Supplier<T> body);

    /** Where pod {@code p} is placed now (null when nowhere yet). */
    Autoscaler.Placement placement(Pod p);

    /** The limit that keeps {@code unplaced} (members of one group) from getting capacity, after trial {@code out}. */
    String limit(Autoscaler.ScaleUpOutcome out, List<Pod> unplaced);
  }

  /** A pending member of a group. */
  record Member(Pod pod, PodGroups.Group group) {}

  /** The pending members of this loop, and the groups blocked before any trial (gang buffers cut by quotas). */
  record Members(List<Member> members, Map<PodGroups.Key, String> preBlocked) {}

  /** The real pending pods of declared groups, then the virtual pods of injected gang buffers. */
  static Members members(PodGroups declared, List<Pod> real, BufferInjector.Injection injection) {
    List<Member> members = new ArrayList<>();
    if (!declared.isEmpty()) {
      for (Pod p : real) {
        declared.groupOf(p).ifPresent(g -> members.add(new Member(p, g)));
      }
    }
    Map<PodGroups.Key, String> preBlocked = new HashMap<>();
    for (BufferInjector.Entry e : injection.entries()) {
      CapacityBuffer b = e.buffer();
      if (!e.injected() || !PodGroups.isGangBuffer(b.getMetadata().getAnnotations())) {
        continue;
      }
      Condition quota = StatusConditions.find(b.getStatus().getConditions(), BufferConditions.LIMITED_BY_QUOTAS).orElse(null);
      boolean limited = quota != null && BufferConditions.TRUE.equals(quota.getStatus());
      // a group is all the chunks; when quotas cut them, all the chunks the buffer asks for
      int wanted = limited && b.getSpec() != null && b.getSpec().getReplicas() != null ? b.getSpec().getReplicas() : 0;
      PodGroups.Group g = new PodGroups.Group(new PodGroups.Key(PodGroups.Source.BUFFER, b.getMetadata().getNamespace(),
          b.getMetadata().getName()), Math.max(e.pods().size(), wanted));
      for (Pod p : e.pods()) {
        members.add(new Member(p, g));
      }
      if (limited) {
        preBlocked.put(g.key(), "limited by quotas (" + quota.getMessage() + ")");
      }
    }
    return new Members(members, preBlocked);
  }

  /** Bound members per declared group. */
  static Map<PodGroups.Key, Integer> running(PodGroups declared, Collection<SchedulingSimulation.BoundPod> bound) {
    Map<PodGroups.Key, Integer> running = new HashMap<>();
    if (!declared.isEmpty()) {
      for (SchedulingSimulation.BoundPod b : bound) {
        declared.groupOf(b.pod()).ifPresent(g -> running.merge(g.key(), 1, Integer::sum));
      }
    }
    return running;
  }

  /**
   * Which limit keeps {@code unplaced} (members of one group) from capacity after the trial {@code out}, given the node
   * groups as the trial left them.
   */
  static String limit(AutoscalerOptions options, Collection<NodeGroup> groups, Map<String, Node> templates,
      SchedulingSimulation sim, Predicate<String> backedOff, Autoscaler.ScaleUpOutcome out, List<Pod> unplaced, int nodeCount) {
    if (out.limitReason() != null) {
      return out.limitReason();
    }
    int added = 0;
    for (IterationResult.ScaleUpDecision d : out.decisions()) {
      added += d.delta();
    }
    if (options.maxNodesTotal() > 0 && nodeCount + added >= options.maxNodesTotal()) {
      return "max-nodes-total " + options.maxNodesTotal() + " reached";
    }
    Pod sample = unplaced.get(0);
    List<String> full = new ArrayList<>();
    boolean open = false;
    for (NodeGroup g : groups) {
      if (sim.checkOnTemplate(sample, templates.get(g.id())).isEmpty()) {
        if (g.targetSize() >= g.maxSize()) {
          full.add(g.id() + " (maxSize " + g.maxSize() + ")");
        } else if (!backedOff.test(g.id())) {
          open = true;
        }
      }
    }
    if (!full.isEmpty() && !open) {
      return "node group maxSize reached: " + String.join(", ", full);
    }
    String reason = out.reasonFor(sample);
    if (!reason.isEmpty()) {
      return reason;
    }
    return full.isEmpty() && !open ? "no node group fits a member" : "the members do not fit together (" + unplaced.size() + " left over)";
  }

  /** One {@code PodGroupNotTriggerScaleUp} event per blocked group: on its first pending pod, or on its buffer. */
  static List<EventRecord> events(Result r, BufferInjector.Injection injection) {
    List<EventRecord> out = new ArrayList<>();
    for (Map.Entry<PodGroups.Key, String> blocked : r.blocked().entrySet()) {
      PodGroups.Key k = blocked.getKey();
      Pod first = r.firstMember().get(k);
      ObjectRef subject = k.source() == PodGroups.Source.BUFFER
          ? ScaleUpStatusProcessor.ref(injection.registry().get(first.getMetadata().getUid()).buffer())
          : ScaleUpStatusProcessor.ref(first);
      out.add(new EventRecord(subject, EventRecord.NORMAL, Events.POD_GROUP_NOT_TRIGGER_SCALE_UP, blocked.getValue()));
    }
    return out;
  }

  /** The blocked gang buffers by namespace/name, with their group's message. */
  static Map<String, String> blockedBuffers(Result r) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<PodGroups.Key, String> blocked : r.blocked().entrySet()) {
      if (blocked.getKey().source() == PodGroups.Source.BUFFER) {
        out.put(blocked.getKey().namespace() + "/" + blocked.getKey().name(), blocked.getValue());
      }
    }
    return out;
  }

  /** A group taken out: why, and how many members would have had a place (-1: not tried yet). */
  record Blocked(int placed, String limit) {}

  /** The outcome with the blocked groups' pods carrying their group's reason, and one line per group. */
  record Result(Autoscaler.ScaleUpOutcome outcome, List<PodGroupOutcome> groups, Map<PodGroups.Key, Pod> firstMember,
      Map<PodGroups.Key, String> blocked) {}

  private GangScaleUp() {}

  /**
   * Runs the step all-or-nothing for the groups of {@code members}.
   *
   * @param pending every pending member (real and virtual, placed or not) with its group, in pending order, and the
   *     groups that cannot be scaled for whatever the step does (with the limit)
   * @param running bound members per group
   */
  static Result run(List<Pod> real, List<Pod> virtual, Members pending, Map<PodGroups.Key, Integer> running, Step step,
      Context loop) {
    List<Member> memberList = pending.members();
    Map<PodGroups.Key, String> preBlocked = pending.preBlocked();
    Map<PodGroups.Key, PodGroups.Group> groups = new LinkedHashMap<>();
    Map<PodGroups.Key, List<Pod>> byGroup = new LinkedHashMap<>();
    Map<Pod, PodGroups.Group> members = new IdentityHashMap<>(memberList.size() * 2);
    for (Member m : memberList) {
      groups.putIfAbsent(m.group().key(), m.group());
      byGroup.computeIfAbsent(m.group().key(), k -> new ArrayList<>()).add(m.pod());
      members.put(m.pod(), m.group());
    }
    Map<PodGroups.Key, Blocked> blocked = new LinkedHashMap<>();
    for (PodGroups.Group g : groups.values()) {
      int have = byGroup.get(g.key()).size() + running.getOrDefault(g.key(), 0);
      if (preBlocked.containsKey(g.key())) {
        blocked.put(g.key(), new Blocked(-1, preBlocked.get(g.key())));
      } else if (have < g.minMember()) {
        blocked.put(g.key(), new Blocked(-1, "only " + have + " of " + g.minMember() + " members exist"));
      }
    }
    // bounded: every trial that finds a short group takes at least one group out
    for (int round = 0; round <= groups.size(); round++) {
      List<Pod> r = without(real, members, blocked);
      List<Pod> v = without(virtual, members, blocked);
      Map<PodGroups.Key, Blocked> shortGroups = loop.trial(() -> {
        Autoscaler.ScaleUpOutcome out = step.run(r, v);
        Map<PodGroups.Key, Blocked> found = new LinkedHashMap<>();
        if (out.result() == ScaleUpResult.ScaleUpInCooldown) {
          return found; // nothing is scaled for in this loop anyway
        }
        for (PodGroups.Group g : groups.values()) {
          if (blocked.containsKey(g.key())) {
            continue;
          }
          List<Pod> unplaced = new ArrayList<>();
          int placed = running.getOrDefault(g.key(), 0) + placed(byGroup.get(g.key()), loop, unplaced);
          if (placed < g.minMember()) {
            found.put(g.key(), new Blocked(placed, loop.limit(out, unplaced)));
          }
        }
        return found;
      });
      if (shortGroups.isEmpty()) {
        break;
      }
      // take out only the short group that came last in pending order: the earlier ones may fit without it
      Map.Entry<PodGroups.Key, Blocked> last = null;
      for (Map.Entry<PodGroups.Key, Blocked> e : shortGroups.entrySet()) {
        last = e;
      }
      blocked.put(last.getKey(), last.getValue());
    }
    List<Pod> r = without(real, members, blocked);
    List<Pod> v = without(virtual, members, blocked);
    Autoscaler.ScaleUpOutcome out = step.run(r, v);
    List<PodGroupOutcome> lines = new ArrayList<>();
    Map<PodGroups.Key, Pod> first = new LinkedHashMap<>();
    Map<PodGroups.Key, String> messages = new LinkedHashMap<>();
    Map<Pod, String> reasons = new IdentityHashMap<>(out.reasons());
    for (PodGroups.Group g : groups.values()) {
      List<Pod> pods = byGroup.get(g.key());
      first.put(g.key(), pods.get(0));
      int run = running.getOrDefault(g.key(), 0);
      Blocked b = blocked.get(g.key());
      String status;
      int placed;
      if (b != null) {
        status = PodGroupOutcome.BLOCKED;
        if (b.placed() < 0) {
          // blocked before any trial: what the pods found without new capacity
          b = new Blocked(run + placed(pods, loop, new ArrayList<>()), b.limit());
        }
        placed = b.placed();
        String text = message(g, pods.size() + run, b);
        messages.put(g.key(), text);
        for (Pod p : pods) {
          if (loop.placement(p) == null || loop.placement(p) == Autoscaler.Placement.NONE) {
            reasons.put(p, text);
          }
        }
      } else {
        placed = run + placed(pods, loop, new ArrayList<>());
        boolean anyNew = pods.stream().anyMatch(p -> loop.placement(p) == Autoscaler.Placement.NEW);
        status = placed < g.minMember() ? PodGroupOutcome.BLOCKED : anyNew ? PodGroupOutcome.SCALED_UP : PodGroupOutcome.FITS;
      }
      lines.add(new PodGroupOutcome(g.key().source().text(), g.key().namespace(), g.key().name(), g.minMember(),
          pods.size() + run, run, placed, status, b == null ? "" : b.limit()));
    }
    ScaleUpResult result = out.result();
    if (result == ScaleUpResult.ScaleUpNotNeeded && !blocked.isEmpty()) {
      result = ScaleUpResult.ScaleUpNoOptionsAvailable;
    }
    Autoscaler.ScaleUpOutcome merged = new Autoscaler.ScaleUpOutcome(result, out.decisions(), out.triggeredBy(),
        out.triggeredInOrder(), reasons, out.limitReason());
    return new Result(merged, List.copyOf(lines), first, messages);
  }

  /** The text a blocked group's pods and event carry. */
  static String message(PodGroups.Group g, int members, Blocked b) {
    return String.format(java.util.Locale.ROOT, "pod group %s (%s, minMember %d): %d of %d members would get capacity, so none is requested: %s",
        g.key(), g.key().source().text(), g.minMember(), b.placed(), members, b.limit());
  }

  private static int placed(List<Pod> pods, Context loop, List<Pod> unplaced) {
    int n = 0;
    for (Pod p : pods) {
      Autoscaler.Placement at = loop.placement(p);
      if (at == Autoscaler.Placement.EXISTING || at == Autoscaler.Placement.UPCOMING || at == Autoscaler.Placement.NEW) {
        n++;
      } else {
        unplaced.add(p);
      }
    }
    return n;
  }

  private static List<Pod> without(List<Pod> pods, Map<Pod, PodGroups.Group> members, Map<PodGroups.Key, Blocked> blocked) {
    if (blocked.isEmpty()) {
      return pods;
    }
    List<Pod> out = new ArrayList<>(pods.size());
    for (Pod p : pods) {
      PodGroups.Group g = members.get(p);
      if (g == null || !blocked.containsKey(g.key())) {
        out.add(p);
      }
    }
    return out;
  }

}
