package dev.headroom.controller.provider.kwok;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The KWOK-style node provider (autoscaler spec §6.2): node groups come from {@code NodeGroup} documents, scale-up
 * creates Node objects that look like the group's template and turn Ready after the group's
 * {@code provisioningDelay} (measured on an injectable clock), scale-down deletes them. Once Ready a node gets the
 * {@code kwok.x-k8s.io/node: fake} annotation so a KWOK controller takes over its heartbeats and pods. No cloud is
 * involved, so Headroom runs against any test cluster.
 *
 * <p>A group whose template already carries that annotation leaves start-up to kwok: its nodes are created
 * {@code Ready=False} (reason {@link #PROVISIONING_REASON}) with the annotation and the not-ready taint, and kwok's
 * node-initialize stage (with whatever delay it is configured with) turns them Ready; the group's
 * {@code provisioningDelay} is not used. That is how a node created by Karpenter's KWOK provider starts, so the two
 * can run on one bed with one start-up delay.
 *
 * <p><b>Standby capacity</b> (docs/standby-capacity.md): a group with {@code spec.standby} keeps the number of standby
 * nodes the autoscaler sets ({@link #setStandbyTarget}), created as {@code preparing}, suspended once their
 * provisioning delay has passed, deleted when surplus ({@link StandbyNodes} holds that lifecycle). They are cordoned,
 * tainted {@code headroom.dev/standby=STATE:NoSchedule}, never Ready and never kwok's, and are not in the group's
 * target size. {@link #increaseSize} resumes suspended nodes first: each counts towards the target at once and turns
 * Ready after the group's {@code standby.resumeDelay} through the same promotion as a provisioned node; only the rest
 * of the increase is created. The next refresh refills the pool.
 */
public final class KwokProvider implements NodeGroupProvider {
  private static final Logger LOG = LoggerFactory.getLogger(KwokProvider.class);

  /** {@code --cloud-provider} value. */
  public static final String NAME = "kwok";
  /** Annotation on every node this provider created. */
  public static final String MANAGED_ANNOTATION = "headroom.dev/managed";
  /** When the node was requested (RFC 3339); Ready is due at this time plus the group's provisioning delay. */
  public static final String REQUESTED_AT_ANNOTATION = Nodes.REQUESTED_AT;
  /** KWOK's node-management annotation, added once the node is Ready. */
  public static final String KWOK_ANNOTATION = "kwok.x-k8s.io/node";
  /** Value of {@link #KWOK_ANNOTATION}. */
  public static final String KWOK_ANNOTATION_VALUE = "fake";
  /** Reason of the {@code Ready=False} condition while a node is provisioning. */
  public static final String PROVISIONING_REASON = "HeadroomProvisioning";
  /** Reason of the {@code Ready=True} condition set when provisioning ends. */
  public static final String READY_REASON = "HeadroomProvisioned";
  /** Taint a provisioning node carries. */
  public static final String NOT_READY_TAINT = "node.kubernetes.io/not-ready";
  /** Prefix of {@code spec.providerID}. */
  public static final String PROVIDER_ID_PREFIX = "kwok:";
  /** When a suspended node was resumed (RFC 3339); Ready is due at this time plus the group's {@code standby.resumeDelay}. */
  public static final String RESUME_REQUESTED_AT_ANNOTATION = Nodes.RESUME_REQUESTED_AT;
  /** Reason of the {@code Ready=False} condition of a standby node being prepared. */
  public static final String STANDBY_PREPARING_REASON = "HeadroomStandbyPreparing";
  /** Reason of the {@code Ready=False} condition of a suspended standby node. */
  public static final String SUSPENDED_REASON = "HeadroomSuspended";
  /** Reason of the {@code Ready=False} condition of a resumed node until it is Ready. */
  public static final String RESUMING_REASON = "HeadroomResuming";
  /** Reason of the {@code Ready=True} condition set when a resumed node is Ready. */
  public static final String RESUMED_REASON = "HeadroomResumed";

  private static final String NAME_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789";

  private final KubernetesClient client;
  private final Supplier<List<NodeGroup>> groupSource;
  private final Supplier<List<Node>> nodeLister;
  private final Clock clock;
  private final RandomGenerator random;
  private final Map<String, NodeGroup> groups = new LinkedHashMap<>();
  private final Map<String, Integer> targets = new HashMap<>();
  private final StandbyNodes standby;

  /**
   * @param groupSource the configured node groups (re-read on every {@link #refresh()})
   * @param nodeLister the current Nodes (an informer cache in production)
   * @param clock decides when provisioning nodes turn Ready
   * @param random picks node-name suffixes
   */
  public KwokProvider(KubernetesClient client, Supplier<List<NodeGroup>> groupSource, Supplier<List<Node>> nodeLister,
      Clock clock, RandomGenerator random) {
    this.client = client;
    this.groupSource = groupSource;
    this.nodeLister = nodeLister;
    this.clock = clock;
    this.random = random;
    this.standby = new StandbyNodes(client, clock);
  }

  /** How a node is created: Ready at once, provisioning (Ready after the group's delay, or kwok's), or as a standby node. */
  private enum Start { READY, PROVISIONING, STANDBY }

  @Override
  public synchronized void refresh() {
    List<NodeGroup> configured = groupSource.get();
    Map<String, NodeGroup> next = new LinkedHashMap<>();
    for (NodeGroup g : configured) {
      next.put(g.id(), g);
    }
    groups.clear();
    groups.putAll(next);
    targets.keySet().retainAll(next.keySet());
    standby.retain(next.keySet());
    List<Node> nodes = standby.view(nodeLister.get());
    for (NodeGroup g : next.values()) {
      standby.bootstrap(g, nodes);
      if (!targets.containsKey(g.id())) {
        // standby nodes are not in the target size
        int existing = (int) nodesOf(nodes, g.id()).stream().filter(n -> !Nodes.isStandby(n)).count();
        targets.put(g.id(), existing);
        if (existing < g.targetSize()) {
          LOG.info("node group {}: bootstrapping {} Ready nodes (targetSize {})", g.id(), g.targetSize() - existing, g.targetSize());
          for (int i = existing; i < g.targetSize(); i++) {
            create(g, Start.READY, g.id() + "-" + suffix());
            targets.merge(g.id(), 1, Integer::sum);
          }
        }
      }
    }
    promoteDueNodes(nodes);
    for (NodeGroup g : next.values()) {
      standby.reconcile(g, nodes, this::createStandby);
    }
  }

  /**
   * Turns provisioning nodes Ready whose {@code requested-at + provisioningDelay} has passed, and resumed nodes whose
   * {@code resume-requested-at + standby.resumeDelay} has.
   */
  public synchronized int promoteDueNodes() {
    return promoteDueNodes(standby.view(nodeLister.get()));
  }

  private int promoteDueNodes(List<Node> nodes) {
    Instant now = clock.instant();
    int promoted = 0;
    for (Node n : nodes) {
      String group = groupLabel(n);
      NodeGroup g = group == null ? null : groups.get(group);
      if (g == null || !managed(n) || !provisioning(n)) {
        continue;
      }
      boolean resumed = StandbyNodes.resuming(n);
      if (resumed) {
        if (StandbyNodes.readyDue(g, n).isAfter(now)) {
          continue;
        }
      } else {
        if (kwokStarts(g)) {
          continue;
        }
        Optional<Instant> requested = Nodes.time(annotation(n, REQUESTED_AT_ANNOTATION));
        if (requested.isPresent() && requested.get().plus(g.provisioningDelay()).isAfter(now)) {
          continue;
        }
      }
      try {
        markReady(n.getMetadata().getName(), now, resumed);
        promoted++;
      } catch (KubernetesClientException e) {
        LOG.warn("node {}: marking Ready failed: {}", n.getMetadata().getName(), ApiErrors.message(e));
      }
    }
    return promoted;
  }

  @Override
  public synchronized List<NodeGroup> nodeGroups() {
    List<NodeGroup> out = new ArrayList<>();
    for (NodeGroup g : groups.values()) {
      out.add(g.withTargetSize(targets.getOrDefault(g.id(), 0)));
    }
    return out;
  }

  @Override
  public synchronized Optional<String> nodeGroupOf(Node node) {
    String g = groupLabel(node);
    return g != null && groups.containsKey(g) ? Optional.of(g) : Optional.empty();
  }

  @Override
  public synchronized void increaseSize(String groupId, int delta) {
    NodeGroup g = group(groupId);
    if (delta <= 0) {
      throw new ProviderException("size increase must be positive, got " + delta);
    }
    int target = targets.getOrDefault(groupId, 0);
    if (target + delta > g.maxSize()) {
      throw new ProviderException(String.format("size increase too large - desired:%d max:%d", target + delta, g.maxSize()));
    }
    // suspended standby nodes first: each counts towards the target at once and is Ready after the resume delay
    List<String> resumed = g.standby() == null ? List.of() : standby.resume(g, standby.view(nodeLister.get()), delta);
    targets.merge(groupId, resumed.size(), Integer::sum);
    if (g.standby() != null && g.standby().resumeDelay().isZero()) {
      Instant now = clock.instant();
      for (String name : resumed) {
        try {
          markReady(name, now, true);
        } catch (KubernetesClientException e) {
          LOG.warn("node {}: marking Ready failed: {}", name, ApiErrors.message(e));
        }
      }
    }
    delta -= resumed.size();
    Start start = g.provisioningDelay().isZero() ? Start.READY : Start.PROVISIONING;
    // The creates are independent requests: sent concurrently, a scale-up of many nodes takes about one round trip
    // rather than one per node (the loop waits for them). Every node created counts towards the target. The names
    // are drawn here, in order, so that the seeded suffixes do not depend on thread timing.
    List<CompletableFuture<Node>> creates = new ArrayList<>();
    for (int i = 0; i < delta; i++) {
      String name = g.id() + "-" + suffix();
      creates.add(CompletableFuture.supplyAsync(() -> create(g, start, name), CREATES));
    }
    String failure = null;
    for (CompletableFuture<Node> c : creates) {
      try {
        c.join();
        targets.merge(groupId, 1, Integer::sum);
      } catch (CompletionException e) {
        if (failure == null) {
          failure = e.getCause() == null ? e.getMessage() : e.getCause().getMessage();
        }
      }
    }
    if (failure != null) {
      throw new ProviderException("creating node for group " + groupId + " failed: " + failure);
    }
  }

  /** Threads that send a scale-up's node creates concurrently (daemon threads, shared by every provider instance). */
  private static final ExecutorService CREATES = Executors.newFixedThreadPool(8, r -> {
    Thread t = new Thread(r, "headroom-kwok-create");
    t.setDaemon(true);
    return t;
  });

  @Override
  public synchronized void deleteNodes(String groupId, List<Node> nodes) {
    NodeGroup g = group(groupId);
    int target = targets.getOrDefault(groupId, 0);
    if (target <= g.minSize()) {
      throw new ProviderException("min size reached, nodes will not be deleted");
    }
    if (target - nodes.size() < g.minSize()) {
      throw new ProviderException(String.format("deleting %d nodes would take group %s below its min size %d", nodes.size(), groupId, g.minSize()));
    }
    for (Node n : nodes) {
      String name = n.getMetadata().getName();
      if (!groupId.equals(groupLabel(n))) {
        throw new ProviderException("node " + name + " does not belong to node group " + groupId);
      }
      if (!managed(n)) {
        throw new ProviderException("node " + name + " is not managed by Headroom (annotation " + MANAGED_ANNOTATION + " missing)");
      }
      if (Nodes.isStandby(n)) {
        throw new ProviderException("node " + name + " is a standby node of group " + groupId + " (not in its size; its standby target decides it)");
      }
    }
    for (Node n : nodes) {
      delete(n);
      targets.merge(groupId, -1, Integer::sum);
    }
  }

  @Override
  public synchronized void decreaseTargetSize(String groupId, int delta) {
    group(groupId);
    if (delta >= 0) {
      throw new ProviderException("size decrease must be negative, got " + delta);
    }
    List<Node> provisioning = new ArrayList<>();
    for (Node n : nodesOf(standby.view(nodeLister.get()), groupId)) {
      if (managed(n) && provisioning(n)) {
        provisioning.add(n);
      }
    }
    if (provisioning.size() < -delta) {
      throw new ProviderException(String.format("attempt to delete existing nodes: group %s has only %d provisioning nodes, asked to remove %d",
          groupId, provisioning.size(), -delta));
    }
    provisioning.sort(Comparator.comparing((Node n) -> annotation(n, REQUESTED_AT_ANNOTATION), Comparator.nullsFirst(Comparator.naturalOrder()))
        .thenComparing(n -> n.getMetadata().getName()).reversed());
    for (Node n : provisioning.subList(0, -delta)) {
      delete(n);
      targets.merge(groupId, -1, Integer::sum);
    }
  }

  private void delete(Node n) {
    String name = n.getMetadata().getName();
    try {
      client.nodes().withName(name).delete();
    } catch (KubernetesClientException e) {
      throw new ProviderException("deleting node " + name + " failed: " + e.getMessage());
    }
    standby.deleted(name); // a resumed node the lister may still show as the standby code last wrote it
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return Optional.empty();
  }

  /** A standby node (preparing or suspended) this provider created. */
  @Override
  public boolean isStandby(Node node) {
    return managed(node) && Nodes.isStandby(node);
  }

  @Override
  public synchronized StandbyPool standbyPool(String groupId) {
    if (!groups.containsKey(groupId)) {
      return StandbyPool.NONE;
    }
    return standby.pool(groupId, standby.view(nodeLister.get()));
  }

  /**
   * Remembers the group's standby target; the next {@link #refresh()} creates, suspends or deletes standby nodes.
   *
   * @throws ProviderException for a group without {@code spec.standby} (or whose nodes kwok starts)
   */
  @Override
  public synchronized void setStandbyTarget(String groupId, int target) {
    standby.setTarget(group(groupId), target);
  }

  private NodeGroup group(String id) {
    NodeGroup g = groups.get(id);
    if (g == null) {
      throw new ProviderException("unknown node group " + id);
    }
    return g;
  }

  /** Whether kwok, not this provider, turns the group's nodes Ready (its template carries kwok's annotation). */
  static boolean kwokStarts(NodeGroup g) {
    Map<String, String> a = g.template().getMetadata() == null ? null : g.template().getMetadata().getAnnotations();
    return a != null && KWOK_ANNOTATION_VALUE.equals(a.get(KWOK_ANNOTATION));
  }

  /** Creates a preparing standby node of the group under a new name. */
  private Node createStandby(NodeGroup g) {
    return create(g, Start.STANDBY, g.id() + "-" + suffix());
  }

  private Node create(NodeGroup g, Start start, String name) {
    boolean ready = start == Start.READY && !kwokStarts(g);
    Instant now = clock.instant();
    Node template = g.template();
    Map<String, String> labels = new LinkedHashMap<>();
    if (template.getMetadata().getLabels() != null) {
      labels.putAll(template.getMetadata().getLabels());
    }
    labels.put(NodeGroupLabels.NODE_GROUP, g.id());
    labels.put(NodeGroupLabels.HOSTNAME, name);
    Map<String, String> annotations = new LinkedHashMap<>();
    if (template.getMetadata().getAnnotations() != null) {
      annotations.putAll(template.getMetadata().getAnnotations());
    }
    annotations.put(MANAGED_ANNOTATION, "true");
    annotations.put(REQUESTED_AT_ANNOTATION, format(now));
    List<Taint> taints = new ArrayList<>();
    if (template.getSpec() != null && template.getSpec().getTaints() != null) {
      for (Taint t : template.getSpec().getTaints()) {
        taints.add(new TaintBuilder(t).build());
      }
    }
    NodeCondition readyCondition;
    if (start == Start.STANDBY) {
      // kwok must not run it: no heartbeats, no pods, until it is resumed and Ready
      annotations.remove(KWOK_ANNOTATION);
      annotations.put(Nodes.STANDBY, Nodes.STANDBY_PREPARING);
      taints.add(new TaintBuilder().withKey(NOT_READY_TAINT).withEffect("NoSchedule").build());
      taints.add(StandbyNodes.standbyTaint(Nodes.STANDBY_PREPARING));
      readyCondition = NodeWrites.ready(false, STANDBY_PREPARING_REASON, "standby node is being prepared by Headroom", now);
    } else if (ready) {
      annotations.put(KWOK_ANNOTATION, KWOK_ANNOTATION_VALUE);
      readyCondition = readyCondition(true, READY_REASON, now);
    } else {
      // provisioning: without kwok's annotation until promoted, or with it (from the template) when kwok starts it
      taints.add(new TaintBuilder().withKey(NOT_READY_TAINT).withEffect("NoSchedule").build());
      readyCondition = readyCondition(false, PROVISIONING_REASON, now);
    }
    Node node = new NodeBuilder()
        .withNewMetadata().withName(name).withLabels(labels).withAnnotations(annotations).endMetadata()
        .withNewSpec().withProviderID(PROVIDER_ID_PREFIX + name).withTaints(taints)
          .withUnschedulable(start == Start.STANDBY ? Boolean.TRUE : null).endSpec()
        .withNewStatus()
          .withCapacity(new LinkedHashMap<>(template.getStatus().getCapacity()))
          .withAllocatable(new LinkedHashMap<>(template.getStatus().getAllocatable()))
          .withConditions(readyCondition)
          .withNewNodeInfo().withKubeletVersion("fake").withArchitecture(labels.getOrDefault(NodeGroupLabels.ARCH, "amd64"))
            .withOperatingSystem(labels.getOrDefault(NodeGroupLabels.OS, "linux")).endNodeInfo()
        .endStatus()
        .build();
    Node created = client.nodes().resource(node).create();
    if (created.getStatus() == null || created.getStatus().getConditions() == null || created.getStatus().getConditions().isEmpty()) {
      // An API server that dropped the status on create: write it through the status subresource.
      created.setStatus(node.getStatus());
      created = client.nodes().resource(created).updateStatus();
    }
    LOG.info("node group {}: created node {} ({})", g.id(), name, switch (start) {
      case STANDBY -> "standby, preparing";
      case READY -> kwokStarts(g) ? "kwok starts it" : "Ready";
      case PROVISIONING -> kwokStarts(g) ? "kwok starts it" : "provisioning";
    });
    return created;
  }

  private void markReady(String name, Instant now, boolean resumed) {
    // spec and metadata first: once the node carries kwok's annotation, kwok keeps its heartbeats and pods going, so
    // a failed status edit below is retried by the next promotion (the node is still provisioning) without harm
    handOverToKwok(name);
    NodeWrites.writeReady(client, name, readyCondition(true, resumed ? RESUMED_REASON : READY_REASON, now));
    LOG.info("node {} is Ready{}", name, resumed ? " (resumed)" : "");
  }

  /**
   * Drops the not-ready taint and adds kwok's annotation (and, for a resumed node, drops its standby annotation,
   * taint and cordon) with an update under the node's resourceVersion, read afresh on a conflict: a JSON patch
   * computed from an older copy fails with 422 when another controller (the node lifecycle controller) removed the
   * taint in between.
   */
  private void handOverToKwok(String name) {
    NodeWrites.update(client, name, n -> {
      if (n.getSpec().getTaints() != null) {
        n.getSpec().setTaints(new ArrayList<>(n.getSpec().getTaints().stream().filter(t -> !NOT_READY_TAINT.equals(t.getKey())).toList()));
      }
      if (n.getMetadata().getAnnotations() == null) {
        n.getMetadata().setAnnotations(new HashMap<>());
      }
      n.getMetadata().getAnnotations().put(KWOK_ANNOTATION, KWOK_ANNOTATION_VALUE);
      StandbyNodes.clearStandby(n);
      return true;
    });
  }

  private static NodeCondition readyCondition(boolean ready, String reason, Instant now) {
    String message = RESUMED_REASON.equals(reason) ? "standby node resumed by Headroom"
        : ready ? "node provisioned by Headroom" : "node is being provisioned by Headroom";
    return NodeWrites.ready(ready, reason, message, now);
  }

  private String suffix() {
    StringBuilder sb = new StringBuilder(5);
    for (int i = 0; i < 5; i++) {
      sb.append(NAME_CHARS.charAt(random.nextInt(NAME_CHARS.length())));
    }
    return sb.toString();
  }

  private static String format(Instant t) {
    return NodeWrites.format(t);
  }

  private static List<Node> nodesOf(List<Node> nodes, String group) {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes) {
      if (group.equals(groupLabel(n))) {
        out.add(n);
      }
    }
    return out;
  }

  private static String groupLabel(Node n) {
    Map<String, String> labels = n.getMetadata().getLabels();
    return labels == null ? null : labels.get(NodeGroupLabels.NODE_GROUP);
  }

  private static String annotation(Node n, String key) {
    Map<String, String> a = n.getMetadata().getAnnotations();
    return a == null ? null : a.get(key);
  }

  static boolean managed(Node n) {
    return "true".equals(annotation(n, MANAGED_ANNOTATION));
  }

  /**
   * Not a standby node (preparing or suspended), and not handed to kwok yet (no {@link #KWOK_ANNOTATION}; a resumed
   * node too, until its resume delay has passed), or handed over but its Ready status not written yet
   * ({@code Ready=False} with reason {@link #PROVISIONING_REASON}). The first half keeps a node provisioning when
   * the node-lifecycle controller has replaced its Ready condition by {@code Unknown} (no heartbeat within the
   * startup grace period, as for any node no kubelet reports for).
   */
  static boolean provisioning(Node n) {
    if (Nodes.isStandby(n)) {
      return false; // preparing or suspended: not in the group's size, not on its way to Ready
    }
    if (annotation(n, KWOK_ANNOTATION) == null) {
      return true;
    }
    if (n.getStatus() == null || n.getStatus().getConditions() == null) {
      return false;
    }
    for (NodeCondition c : n.getStatus().getConditions()) {
      if ("Ready".equals(c.getType())) {
        return "False".equals(c.getStatus()) && PROVISIONING_REASON.equals(c.getReason());
      }
    }
    return false;
  }
}
