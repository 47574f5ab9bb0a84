package dev.headroom.controller.provider.kwok;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.NodeGroupProvider.ProviderException;
import dev.headroom.core.autoscaler.NodeGroupProvider.StandbyPool;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The standby pools of the KWOK-style provider (docs/standby-capacity.md; the contract is {@code NodeGroupProvider}'s).
 * Per group with {@code spec.standby} it keeps the number of standby nodes the autoscaler set; {@link #reconcile}, run
 * by every {@code refresh}, walks each node through the states of its {@link Nodes#STANDBY} annotation:
 *
 * <ol>
 *   <li>{@code preparing}: created cordoned ({@code spec.unschedulable}), tainted {@code headroom.dev/standby=preparing:NoSchedule}
 *       and the not-ready taint, {@code Ready=False} ({@link KwokProvider#STANDBY_PREPARING_REASON}), without kwok's
 *       annotation (kwok does not run it); once {@code requested-at + provisioningDelay} has passed (it has
 *       initialised as a new node does) it is
 *   <li>{@code suspended}: taint value {@code suspended}, still cordoned, {@code Ready=False}
 *       ({@link KwokProvider#SUSPENDED_REASON}). A scale-up of the group ({@link #resume}) makes it
 *   <li>{@code resuming}: counted in the group's target size from then on, taint value {@code resuming},
 *       {@link KwokProvider#RESUME_REQUESTED_AT_ANNOTATION}; the provider's promotion turns it Ready
 *       {@code standby.resumeDelay} later exactly as a provisioned node ({@link #clearStandby}: annotation, taint and
 *       cordon go, kwok takes it over).
 * </ol>
 *
 * Surplus standby nodes are deleted, preparing ones first, newest first. Preparing and suspended nodes are not in their
 * group's target size. The counts come from the node lister (an informer cache in production); this class's own
 * writes stand in for what the lister does not show yet ({@link #view}), so a lagging cache never makes it create a
 * pool twice. Not thread-safe: the provider calls it under its own lock.
 */
final class StandbyNodes {
  private static final Logger LOG = LoggerFactory.getLogger(StandbyNodes.class);

  /** The taint the node-lifecycle controller adds to a cordoned node; a resumed node is uncordoned, so it goes too. */
  static final String UNSCHEDULABLE_TAINT = "node.kubernetes.io/unschedulable";
  /**
   * The taint the node-lifecycle controller adds once a node has posted no status for its grace period (Ready
   * {@code Unknown}), as a long-suspended node has; dropped when it resumes (the controller would lift it only at its
   * next pass after Ready).
   */
  static final String UNREACHABLE_TAINT = "node.kubernetes.io/unreachable";
  /** How long one of this class's writes stands in for the lister's copy at most (an informer lags by milliseconds). */
  static final Duration OVERLAY_TTL = Duration.ofMinutes(1);

  private final KubernetesClient client;
  private final Clock clock;
  private final Map<String, Integer> targets = new HashMap<>();
  /** Node name → the node as this class last wrote it (null: deleted), until the lister shows as much. */
  private final Map<String, Written> written = new LinkedHashMap<>();

  private record Written(Node node, Instant at) {}

  StandbyNodes(KubernetesClient client, Clock clock) {
    this.client = client;
    this.clock = clock;
  }

  /** Why the group keeps no standby nodes (no {@code spec.standby}, or kwok starts its nodes); empty when it can. */
  static Optional<String> refusal(NodeGroup g) {
    if (g.standby() == null) {
      return Optional.of("node group " + g.id() + " has no spec.standby");
    }
    if (KwokProvider.kwokStarts(g)) {
      return Optional.of("node group " + g.id() + " leaves its nodes to kwok (template annotation " + KwokProvider.KWOK_ANNOTATION
          + "), so they cannot be suspended");
    }
    return Optional.empty();
  }

  /** Forgets the targets of groups no longer configured. */
  void retain(Set<String> groups) {
    targets.keySet().retainAll(groups);
  }

  /** A group seen for the first time (or after a restart): its target is the standby nodes it has, until set. */
  void bootstrap(NodeGroup g, List<Node> view) {
    if (targets.containsKey(g.id())) {
      return;
    }
    int present = refusal(g).isPresent() ? 0 : of(view, g.id(), Nodes.STANDBY_PREPARING).size() + of(view, g.id(), Nodes.STANDBY_SUSPENDED).size();
    targets.put(g.id(), present);
    if (present > 0) {
      LOG.info("node group {}: {} standby nodes found, kept until the autoscaler sets the standby target", g.id(), present);
    }
  }

  /**
   * Sets the group's standby target; {@link #reconcile} acts on it.
   *
   * @throws ProviderException when the group keeps no standby nodes or the target is negative
   */
  void setTarget(NodeGroup g, int target) {
    Optional<String> refused = refusal(g);
    if (refused.isPresent()) {
      throw new ProviderException(refused.get());
    }
    if (target < 0) {
      throw new ProviderException("standby target must not be negative, got " + target);
    }
    Integer before = targets.put(g.id(), target);
    if (before == null || before != target) {
      LOG.info("node group {}: standby target {} (was {})", g.id(), target, before == null ? 0 : before);
    }
  }

  /** The group's target and its standby nodes in {@code view}. */
  StandbyPool pool(String group, List<Node> view) {
    return new StandbyPool(targets.getOrDefault(group, 0), of(view, group, Nodes.STANDBY_SUSPENDED).size(),
        of(view, group, Nodes.STANDBY_PREPARING).size());
  }

  /**
   * Brings the group's pool to its target: deletes surplus standby nodes (preparing first, newest first), suspends
   * preparing nodes whose provisioning delay has passed, creates missing ones with {@code create}. A failed write is
   * logged and tried again by the next refresh.
   *
   * @param create creates one preparing standby node of the group
   */
  void reconcile(NodeGroup g, List<Node> view, Function<NodeGroup, Node> create) {
    int target = refusal(g).isPresent() ? 0 : targets.getOrDefault(g.id(), 0);
    List<Node> preparing = new ArrayList<>(of(view, g.id(), Nodes.STANDBY_PREPARING));
    List<Node> suspended = new ArrayList<>(of(view, g.id(), Nodes.STANDBY_SUSPENDED));
    int surplus = preparing.size() + suspended.size() - target;
    if (surplus > 0) {
      List<Node> order = new ArrayList<>(preparing);
      order.sort(OLDEST_FIRST.reversed());
      List<Node> newestSuspended = new ArrayList<>(suspended);
      newestSuspended.sort(OLDEST_FIRST.reversed());
      order.addAll(newestSuspended);
      for (Node n : order.subList(0, surplus)) {
        if (delete(g, n)) {
          preparing.remove(n);
          suspended.remove(n);
        }
      }
    }
    Instant now = clock.instant();
    for (Node n : preparing) {
      Optional<Instant> requested = Nodes.time(annotation(n, Nodes.REQUESTED_AT));
      if (requested.isEmpty() || !requested.get().plus(g.provisioningDelay()).isAfter(now)) {
        suspend(g, n.getMetadata().getName(), now);
      }
    }
    for (int i = preparing.size() + suspended.size(); i < target; i++) {
      try {
        record(create.apply(g));
      } catch (KubernetesClientException e) {
        LOG.warn("node group {}: creating a standby node failed: {}", g.id(), ApiErrors.message(e));
        break;
      }
    }
  }

  /**
   * Resumes up to {@code max} suspended nodes of the group, oldest first; a node no longer suspended when read again is
   * skipped.
   *
   * @return the names of the nodes resumed
   */
  List<String> resume(NodeGroup g, List<Node> view, int max) {
    List<Node> suspended = new ArrayList<>(of(view, g.id(), Nodes.STANDBY_SUSPENDED));
    suspended.sort(OLDEST_FIRST);
    Instant now = clock.instant();
    List<String> resumed = new ArrayList<>();
    for (Node n : suspended) {
      if (resumed.size() >= max) {
        break;
      }
      String name = n.getMetadata().getName();
      try {
        Node updated = NodeWrites.update(client, name, x -> {
          if (!Nodes.STANDBY_SUSPENDED.equals(annotation(x, Nodes.STANDBY))) {
            return false;
          }
          x.getMetadata().getAnnotations().put(Nodes.STANDBY, Nodes.STANDBY_RESUMING);
          x.getMetadata().getAnnotations().put(KwokProvider.RESUME_REQUESTED_AT_ANNOTATION, NodeWrites.format(now));
          setStandbyTaint(x, Nodes.STANDBY_RESUMING);
          return true;
        });
        if (updated == null) {
          continue;
        }
        record(updated);
        resumed.add(name);
        LOG.info("node group {}: resumed standby node {} (Ready in {})", g.id(), name, GoDuration.format(resumeDelay(g)));
      } catch (KubernetesClientException e) {
        LOG.warn("node group {}: resuming node {} failed: {}", g.id(), name, ApiErrors.message(e));
        continue;
      }
      try {
        record(NodeWrites.writeReady(client, name, NodeWrites.ready(false, KwokProvider.RESUMING_REASON,
            "standby node resumed by Headroom", now)));
      } catch (KubernetesClientException e) {
        // the annotation decides the node's state; its Ready reason is for people reading it
        LOG.warn("node {}: writing the resuming status failed: {}", name, ApiErrors.message(e));
      }
    }
    return resumed;
  }

  /** A node resumed and not Ready yet. */
  static boolean resuming(Node n) {
    return Nodes.STANDBY_RESUMING.equals(annotation(n, Nodes.STANDBY));
  }

  /** When a resuming node turns Ready: its resume request plus the group's resume delay. */
  static Instant readyDue(NodeGroup g, Node n) {
    return Nodes.time(annotation(n, KwokProvider.RESUME_REQUESTED_AT_ANNOTATION)).map(t -> t.plus(resumeDelay(g))).orElse(Instant.MIN);
  }

  /**
   * Makes a resumed node an ordinary one as it turns Ready: the standby annotation and taint and the cordon go (with
   * the taints the node-lifecycle controller adds for a cordon and for a node that posts no status). Nodes without
   * the annotation are left as they are.
   */
  static void clearStandby(Node n) {
    if (annotation(n, Nodes.STANDBY) == null) {
      return;
    }
    n.getMetadata().getAnnotations().remove(Nodes.STANDBY);
    if (n.getSpec().getTaints() != null) {
      n.getSpec().setTaints(new ArrayList<>(n.getSpec().getTaints().stream()
          .filter(t -> !Nodes.STANDBY_TAINT.equals(t.getKey()) && !UNSCHEDULABLE_TAINT.equals(t.getKey())
              && !UNREACHABLE_TAINT.equals(t.getKey())).toList()));
    }
    n.getSpec().setUnschedulable(false);
  }

  /** The standby taint with this state as its value. */
  static Taint standbyTaint(String state) {
    return new TaintBuilder().withKey(Nodes.STANDBY_TAINT).withValue(state).withEffect("NoSchedule").build();
  }

  /**
   * The listed nodes with this class's recent writes in place of copies the lister does not show yet: a created
   * node is added, a deleted one left out, an updated one replaced while the listed copy is older (by resourceVersion).
   * A write stands in until the lister catches up, or {@link #OVERLAY_TTL} at most.
   */
  List<Node> view(List<Node> listed) {
    if (written.isEmpty()) {
      return listed;
    }
    Instant now = clock.instant();
    Map<String, Node> byName = new LinkedHashMap<>();
    for (Node n : listed) {
      byName.put(n.getMetadata().getName(), n);
    }
    for (Iterator<Map.Entry<String, Written>> it = written.entrySet().iterator(); it.hasNext(); ) {
      Map.Entry<String, Written> e = it.next();
      Node shown = byName.get(e.getKey());
      Node mine = e.getValue().node();
      boolean caughtUp = mine == null ? shown == null : shown != null && !older(shown, mine);
      if (caughtUp || e.getValue().at().plus(OVERLAY_TTL).isBefore(now)) {
        it.remove();
      } else if (mine == null) {
        byName.remove(e.getKey());
      } else {
        byName.put(e.getKey(), mine);
      }
    }
    return new ArrayList<>(byName.values());
  }

  private void suspend(NodeGroup g, String name, Instant now) {
    try {
      Node updated = NodeWrites.update(client, name, x -> {
        if (!Nodes.STANDBY_PREPARING.equals(annotation(x, Nodes.STANDBY))) {
          return false;
        }
        x.getMetadata().getAnnotations().put(Nodes.STANDBY, Nodes.STANDBY_SUSPENDED);
        setStandbyTaint(x, Nodes.STANDBY_SUSPENDED);
        x.getSpec().setUnschedulable(true);
        return true;
      });
      if (updated == null) {
        return;
      }
      record(updated);
      record(NodeWrites.writeReady(client, name, NodeWrites.ready(false, KwokProvider.SUSPENDED_REASON,
          "standby node suspended by Headroom: a scale-up of node group " + g.id() + " resumes it", now)));
      LOG.info("node group {}: standby node {} suspended", g.id(), name);
    } catch (KubernetesClientException e) {
      LOG.warn("node group {}: suspending node {} failed: {}", g.id(), name, ApiErrors.message(e));
    }
  }

  private boolean delete(NodeGroup g, Node n) {
    String name = n.getMetadata().getName();
    try {
      client.nodes().withName(name).delete();
      deleted(name);
      LOG.info("node group {}: deleted surplus standby node {} ({})", g.id(), name, annotation(n, Nodes.STANDBY));
      return true;
    } catch (KubernetesClientException e) {
      LOG.warn("node group {}: deleting standby node {} failed: {}", g.id(), name, ApiErrors.message(e));
      return false;
    }
  }

  /** A node the provider deleted: left out of {@link #view} until the lister no longer shows it. */
  void deleted(String name) {
    written.put(name, new Written(null, clock.instant()));
  }

  private void record(Node n) {
    written.put(n.getMetadata().getName(), new Written(n, clock.instant()));
  }

  private static Duration resumeDelay(NodeGroup g) {
    return g.standby() == null ? Duration.ZERO : g.standby().resumeDelay();
  }

  private static void setStandbyTaint(Node n, String state) {
    List<Taint> taints = new ArrayList<>();
    if (n.getSpec().getTaints() != null) {
      for (Taint t : n.getSpec().getTaints()) {
        if (!Nodes.STANDBY_TAINT.equals(t.getKey())) {
          taints.add(t);
        }
      }
    }
    taints.add(standbyTaint(state));
    n.getSpec().setTaints(taints);
  }

  /** Whether the listed copy is older than the one written (resourceVersions compared as numbers where they are). */
  private static boolean older(Node shown, Node mine) {
    String a = shown.getMetadata().getResourceVersion();
    String b = mine.getMetadata().getResourceVersion();
    try {
      return Long.parseLong(a) < Long.parseLong(b);
    } catch (NumberFormatException | NullPointerException e) {
      return a == null || !a.equals(b);
    }
  }

  /** The group's managed nodes in this standby state. */
  private static List<Node> of(List<Node> nodes, String group, String state) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      Map<String, String> labels = n.getMetadata().getLabels();
      if (labels != null && group.equals(labels.get(NodeGroupLabels.NODE_GROUP)) && KwokProvider.managed(n)
          && state.equals(annotation(n, Nodes.STANDBY)) && n.getMetadata().getDeletionTimestamp() == null) {
        out.add(n);
      }
    }
    return out;
  }

  private static String annotation(Node n, String key) {
    Map<String, String> a = n.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  /** By request time, then name. */
  private static final Comparator<Node> OLDEST_FIRST = Comparator
      .comparing((Node n) -> Nodes.time(annotation(n, Nodes.REQUESTED_AT)).orElse(Instant.MIN))
      .thenComparing(n -> n.getMetadata().getName());
}
