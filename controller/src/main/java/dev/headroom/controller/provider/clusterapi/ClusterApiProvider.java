package dev.headroom.controller.provider.clusterapi;

import static dev.headroom.controller.provider.clusterapi.ClusterApiNames.*;

import dev.headroom.controller.cache.ApiErrors;
import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.autoscaling.v1.Scale;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.MixedOperation;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.api.model.GenericKubernetesResourceList;
import java.time.Clock;
import java.time.Duration;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The Cluster API node provider (autoscaler spec §6.3): node groups are the MachineDeployments and MachineSets that
 * carry both size annotations; sizes are read and written through the {@code /scale} subresource; a chosen node is
 * removed by annotating its Machine for deletion and then lowering the replica count; nodes map to Machines through
 * the normalised providerID (fallback: the node's machine annotation).
 */
public final class ClusterApiProvider implements NodeGroupProvider {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterApiProvider.class);

  /**
   * Why this provider keeps no standby nodes ({@link #standbyUnsupported()}; the message of a standby buffer's
   * {@code Provisioning=False/StandbyNotSupported} condition).
   */
  public static final String STANDBY_UNSUPPORTED = "the clusterapi node provider cannot keep standby nodes: a Cluster API "
      + "MachineDeployment or MachineSet has no suspended machines (every machine it keeps is running and counts in its "
      + "replicas), so a standby buffer's chunks have nowhere to wait";

  private final KubernetesClient client;
  private final String group;
  private final String version;
  private final Discovery discovery;
  private final Supplier<List<Node>> nodeLister;
  private final Clock clock;

  private final Map<String, Scalable> groups = new LinkedHashMap<>();
  private final Map<String, GenericKubernetesResource> machinesByProviderId = new HashMap<>();
  private final Map<String, GenericKubernetesResource> machinesByName = new HashMap<>();
  private final Map<String, GenericKubernetesResource> machineSets = new HashMap<>();

  /** Auto-discovery filters ({@code --node-group-auto-discovery=clusterapi:namespace=..,clusterName=..,k=v}). */
  public record Discovery(String namespace, String clusterName, Map<String, String> labels) {
    public static final Discovery ALL = new Discovery(null, null, Map.of());

    /** Parses {@code clusterapi:k=v,...}; an empty or null spec means all. */
    public static Discovery parse(String spec) {
      if (spec == null || spec.isBlank()) {
        return ALL;
      }
      String s = spec.trim();
      if (!s.startsWith(PROVIDER_NAME + ":")) {
        throw new IllegalArgumentException("node-group auto-discovery must start with \"" + PROVIDER_NAME + ":\", got \"" + spec + "\"");
      }
      String namespace = null;
      String cluster = null;
      Map<String, String> labels = new LinkedHashMap<>();
      for (String part : s.substring(PROVIDER_NAME.length() + 1).split(",")) {
        if (part.isBlank()) {
          continue;
        }
        int eq = part.indexOf('=');
        if (eq <= 0) {
          throw new IllegalArgumentException("invalid auto-discovery filter \"" + part + "\" (want key=value)");
        }
        String k = part.substring(0, eq).trim();
        String v = part.substring(eq + 1).trim();
        switch (k) {
          case "namespace" -> namespace = v;
          case "clusterName" -> cluster = v;
          default -> labels.put(k, v);
        }
      }
      return new Discovery(namespace, cluster, Map.copyOf(labels));
    }
  }

  /** One discovered group: the resource, its kind, and its bounds. */
  private record Scalable(String id, String kind, GenericKubernetesResource resource, int min, int max, int replicas, NodeGroup group) {}

  /**
   * @param group the Cluster API group ({@link ClusterApiNames#DEFAULT_GROUP} unless {@code CAPI_GROUP} is set)
   * @param version the served version to use (v1beta2 or v1beta1)
   */
  public ClusterApiProvider(KubernetesClient client, String group, String version, Discovery discovery,
      Supplier<List<Node>> nodeLister, Clock clock) {
    this.client = client;
    this.group = group;
    this.version = version;
    this.discovery = discovery;
    this.nodeLister = nodeLister;
    this.clock = clock;
  }

  /** The preferred served version of {@code group} by API discovery; v1beta1 when discovery does not answer. */
  public static String resolveVersion(KubernetesClient client, String group) {
    try {
      var apiGroup = client.getApiGroup(group);
      if (apiGroup != null && apiGroup.getVersions() != null) {
        boolean v2 = apiGroup.getVersions().stream().anyMatch(v -> V1BETA2.equals(v.getVersion()));
        if (v2) {
          return V1BETA2;
        }
      }
    } catch (KubernetesClientException e) {
      LOG.debug("API discovery of {} failed: {}", group, e.getMessage());
    }
    return V1BETA1;
  }

  ResourceDefinitionContext context(String kind) {
    String plural = kind.toLowerCase() + "s";
    return new ResourceDefinitionContext.Builder().withGroup(group).withVersion(version).withKind(kind).withPlural(plural).withNamespaced(true).build();
  }

  private MixedOperation<GenericKubernetesResource, GenericKubernetesResourceList, Resource<GenericKubernetesResource>> ops(String kind) {
    return client.genericKubernetesResources(context(kind));
  }

  private String annotationKey(String suffix) {
    return group + "/" + suffix;
  }

  @Override
  public synchronized void refresh() {
    groups.clear();
    machinesByProviderId.clear();
    machinesByName.clear();
    machineSets.clear();
    List<GenericKubernetesResource> mds = list(MACHINE_DEPLOYMENT);
    List<GenericKubernetesResource> mss = list(MACHINE_SET);
    List<GenericKubernetesResource> machines = list(MACHINE);
    for (GenericKubernetesResource ms : mss) {
      machineSets.put(key(ms.getMetadata().getNamespace(), ms.getMetadata().getName()), ms);
    }
    for (GenericKubernetesResource m : machines) {
      machinesByName.put(key(m.getMetadata().getNamespace(), m.getMetadata().getName()), m);
      String pid = stringAt(m, "spec", "providerID");
      if (pid != null && !pid.isEmpty()) {
        machinesByProviderId.put(normalise(pid), m);
      }
    }
    List<Node> nodes = nodeLister.get();
    for (GenericKubernetesResource md : mds) {
      discover(MACHINE_DEPLOYMENT, md, nodes);
    }
    for (GenericKubernetesResource ms : mss) {
      if (owner(ms, MACHINE_DEPLOYMENT).isPresent()) {
        continue; // its MachineDeployment is the group (or it is not autoscaled)
      }
      discover(MACHINE_SET, ms, nodes);
    }
  }

  private List<GenericKubernetesResource> list(String kind) {
    try {
      return discovery.namespace() == null ? ops(kind).inAnyNamespace().list().getItems() : ops(kind).inNamespace(discovery.namespace()).list().getItems();
    } catch (KubernetesClientException e) {
      throw new ProviderException("listing " + kind + "s failed: " + e.getMessage());
    }
  }

  private void discover(String kind, GenericKubernetesResource r, List<Node> nodes) {
    Map<String, String> a = r.getMetadata().getAnnotations() == null ? Map.of() : r.getMetadata().getAnnotations();
    String id = kind + "/" + r.getMetadata().getNamespace() + "/" + r.getMetadata().getName();
    if (!a.containsKey(annotationKey(MIN_SIZE)) || !a.containsKey(annotationKey(MAX_SIZE)) || a.containsKey(annotationKey(PAUSED))) {
      return;
    }
    if (!matches(r)) {
      return;
    }
    int min;
    int max;
    try {
      min = Integer.parseInt(a.get(annotationKey(MIN_SIZE)).trim());
      max = Integer.parseInt(a.get(annotationKey(MAX_SIZE)).trim());
    } catch (NumberFormatException e) {
      LOG.warn("{}: invalid size annotations, not autoscaled: {}", id, e.getMessage());
      return;
    }
    if (min < 0 || max < min) {
      LOG.warn("{}: invalid size annotations min={} max={}, not autoscaled", id, min, max);
      return;
    }
    Integer replicas = intAt(r, "spec", "replicas");
    int target = replicas == null ? 0 : replicas;
    Optional<Node> template = ScaleFromZeroTemplate.fromAnnotations(id, a, templateTaints(r));
    if (template.isEmpty()) {
      template = sampleNode(id, r, nodes);
    }
    if (template.isEmpty()) {
      LOG.warn("{}: no capacity annotations and no node to copy, cannot build a template; not autoscaled", id);
      return;
    }
    double price = 0;
    if (a.containsKey(PRICE_PER_HOUR)) {
      try {
        price = Double.parseDouble(a.get(PRICE_PER_HOUR).trim());
      } catch (NumberFormatException e) {
        LOG.warn("{}: invalid {} \"{}\"", id, PRICE_PER_HOUR, a.get(PRICE_PER_HOUR));
      }
    }
    NodeGroup g = new NodeGroup(id, min, max, target, price, Duration.ZERO, template.get(), options(id, a));
    groups.put(id, new Scalable(id, kind, r, min, max, target, g));
  }

  private boolean matches(GenericKubernetesResource r) {
    Map<String, String> labels = r.getMetadata().getLabels() == null ? Map.of() : r.getMetadata().getLabels();
    if (discovery.clusterName() != null) {
      String cluster = stringAt(r, "spec", "clusterName");
      if (!discovery.clusterName().equals(cluster) && !discovery.clusterName().equals(labels.get(annotationKey(CLUSTER_NAME_LABEL)))) {
        return false;
      }
    }
    for (Map.Entry<String, String> e : discovery.labels().entrySet()) {
      if (!e.getValue().equals(labels.get(e.getKey()))) {
        return false;
      }
    }
    return true;
  }

  private NodeGroupOptions options(String id, Map<String, String> a) {
    return new NodeGroupOptions(
        doubleOption(id, a, "scaledownutilizationthreshold"),
        doubleOption(id, a, "scaledowngpuutilizationthreshold"),
        durationOption(id, a, "scaledownunneededtime"),
        durationOption(id, a, "scaledownunreadytime"),
        durationOption(id, a, "maxnodeprovisiontime"),
        durationOption(id, a, "maxnodestartuptime"),
        null);
  }

  private Double doubleOption(String id, Map<String, String> a, String name) {
    String v = a.get(annotationKey(OPTIONS_PREFIX + name));
    if (v == null) {
      return null;
    }
    try {
      return Double.parseDouble(v.trim());
    } catch (NumberFormatException e) {
      LOG.warn("{}: ignoring invalid option {}={}", id, name, v);
      return null;
    }
  }

  private Duration durationOption(String id, Map<String, String> a, String name) {
    String v = a.get(annotationKey(OPTIONS_PREFIX + name));
    if (v == null) {
      return null;
    }
    try {
      return GoDuration.parse(v.trim());
    } catch (IllegalArgumentException e) {
      LOG.warn("{}: ignoring invalid option {}={}", id, name, v);
      return null;
    }
  }

  @SuppressWarnings("unchecked")
  private static List<Map<String, Object>> templateTaints(GenericKubernetesResource r) {
    Object spec = r.getAdditionalProperties().get("spec");
    Object template = spec instanceof Map<?, ?> m ? m.get("template") : null;
    Object tspec = template instanceof Map<?, ?> m ? m.get("spec") : null;
    Object taints = tspec instanceof Map<?, ?> m ? m.get("taints") : null;
    return taints instanceof List<?> l ? (List<Map<String, Object>>) l : List.of();
  }

  private Optional<Node> sampleNode(String id, GenericKubernetesResource r, List<Node> nodes) {
    for (Node n : nodes) {
      if (id.equals(groupOf(n).orElse(null)) && Nodes.isReady(n)) {
        return Optional.of(Nodes.sanitizedCopy(n, "template-" + r.getMetadata().getName()));
      }
    }
    return Optional.empty();
  }

  @Override
  public synchronized List<NodeGroup> nodeGroups() {
    return groups.values().stream().map(Scalable::group).toList();
  }

  @Override
  public synchronized Optional<String> nodeGroupOf(Node node) {
    return groupOf(node);
  }

  private Optional<String> groupOf(Node node) {
    return machineOf(node).flatMap(this::groupOfMachine).filter(groups::containsKey);
  }

  private Optional<GenericKubernetesResource> machineOf(Node node) {
    String pid = node.getSpec() == null ? null : node.getSpec().getProviderID();
    if (pid != null && !pid.isEmpty()) {
      GenericKubernetesResource m = machinesByProviderId.get(normalise(pid));
      if (m != null) {
        return Optional.of(m);
      }
    }
    Map<String, String> a = node.getMetadata().getAnnotations();
    if (a != null && a.get(annotationKey(NODE_MACHINE)) != null) {
      String ns = a.getOrDefault(annotationKey(NODE_CLUSTER_NAMESPACE), "default");
      return Optional.ofNullable(machinesByName.get(key(ns, a.get(annotationKey(NODE_MACHINE)))));
    }
    return Optional.empty();
  }

  private Optional<String> groupOfMachine(GenericKubernetesResource machine) {
    String ns = machine.getMetadata().getNamespace();
    Optional<OwnerReference> msRef = owner(machine, MACHINE_SET);
    if (msRef.isEmpty()) {
      return Optional.empty();
    }
    String msId = MACHINE_SET + "/" + ns + "/" + msRef.get().getName();
    if (groups.containsKey(msId)) {
      return Optional.of(msId);
    }
    GenericKubernetesResource ms = machineSets.get(key(ns, msRef.get().getName()));
    if (ms == null) {
      return Optional.empty();
    }
    return owner(ms, MACHINE_DEPLOYMENT).map(md -> MACHINE_DEPLOYMENT + "/" + ns + "/" + md.getName());
  }

  @Override
  public synchronized void increaseSize(String groupId, int delta) {
    Scalable s = scalable(groupId);
    if (delta <= 0) {
      throw new ProviderException("size increase must be positive, got " + delta);
    }
    int replicas = readReplicas(s);
    if (replicas + delta > s.max()) {
      throw new ProviderException(String.format("size increase too large - desired:%d max:%d", replicas + delta, s.max()));
    }
    writeReplicas(s, replicas + delta);
    replace(s, replicas + delta);
  }

  @Override
  public synchronized void deleteNodes(String groupId, List<Node> nodes) {
    Scalable s = scalable(groupId);
    int replicas = readReplicas(s);
    if (replicas <= s.min()) {
      throw new ProviderException("min size reached, nodes will not be deleted");
    }
    if (replicas - nodes.size() < s.min()) {
      throw new ProviderException(String.format("unable to delete %d machines in %s, machine replicas are %d, minSize is %d",
          nodes.size(), groupId, replicas, s.min()));
    }
    List<GenericKubernetesResource> machines = new ArrayList<>();
    for (Node n : nodes) {
      GenericKubernetesResource m = machineOf(n).orElseThrow(() -> new ProviderException("node " + n.getMetadata().getName() + " has no Machine"));
      if (!groupId.equals(groupOfMachine(m).orElse(null))) {
        throw new ProviderException("node " + n.getMetadata().getName() + " does not belong to node group " + groupId);
      }
      machines.add(m);
    }
    for (GenericKubernetesResource m : machines) {
      Resource<GenericKubernetesResource> machine = ops(MACHINE).inNamespace(m.getMetadata().getNamespace()).withName(m.getMetadata().getName());
      GenericKubernetesResource fresh;
      try {
        fresh = machine.get();
      } catch (KubernetesClientException e) {
        throw new ProviderException("reading machine " + m.getMetadata().getName() + " failed: " + e.getMessage());
      }
      if (fresh == null || fresh.getMetadata().getDeletionTimestamp() != null) {
        continue;
      }
      String stamp = DateTimeFormatter.ISO_INSTANT.format(clock.instant().truncatedTo(ChronoUnit.SECONDS));
      try {
        machine.patch(PatchContext.of(PatchType.JSON_MERGE),
            "{\"metadata\":{\"annotations\":{\"" + annotationKey(DELETE_MACHINE) + "\":\"" + stamp + "\"}}}");
      } catch (KubernetesClientException e) {
        throw new ProviderException("annotating machine " + m.getMetadata().getName() + " for deletion failed: " + e.getMessage());
      }
      try {
        writeReplicas(s, replicas - 1);
      } catch (ProviderException e) {
        try {
          machine.patch(PatchContext.of(PatchType.JSON_MERGE),
              "{\"metadata\":{\"annotations\":{\"" + annotationKey(DELETE_MACHINE) + "\":null}}}");
        } catch (KubernetesClientException undo) {
          LOG.warn("removing {} from machine {} failed: {}", annotationKey(DELETE_MACHINE), m.getMetadata().getName(), ApiErrors.message(undo));
        }
        throw e;
      }
      replicas--;
      replace(s, replicas);
      s = groups.get(groupId);
      LOG.info("{}: machine {} marked for deletion, replicas now {}", groupId, m.getMetadata().getName(), replicas);
    }
  }

  @Override
  public Optional<String> standbyUnsupported() {
    return Optional.of(STANDBY_UNSUPPORTED);
  }

  @Override
  public synchronized void decreaseTargetSize(String groupId, int delta) {
    Scalable s = scalable(groupId);
    if (delta >= 0) {
      throw new ProviderException("size decrease must be negative, got " + delta);
    }
    int replicas = readReplicas(s);
    int registered = 0;
    for (Node n : nodeLister.get()) {
      if (groupId.equals(groupOf(n).orElse(null))) {
        registered++;
      }
    }
    if (replicas + delta < registered) {
      throw new ProviderException(String.format("attempt to delete existing nodes targetSize:%d delta:%d existingNodes: %d", replicas, delta, registered));
    }
    writeReplicas(s, replicas + delta);
    replace(s, replicas + delta);
  }

  private Scalable scalable(String id) {
    Scalable s = groups.get(id);
    if (s == null) {
      throw new ProviderException("unknown node group " + id);
    }
    return s;
  }

  private void replace(Scalable s, int replicas) {
    groups.put(s.id(), new Scalable(s.id(), s.kind(), s.resource(), s.min(), s.max(), replicas, s.group().withTargetSize(replicas)));
  }

  private Resource<GenericKubernetesResource> resource(Scalable s) {
    return ops(s.kind()).inNamespace(s.resource().getMetadata().getNamespace()).withName(s.resource().getMetadata().getName());
  }

  /** {@code GET .../scale}: {@code spec.replicas}. */
  private int readReplicas(Scalable s) {
    try {
      Scale scale = resource(s).scale();
      if (scale == null || scale.getSpec() == null || scale.getSpec().getReplicas() == null) {
        throw new ProviderException("unknown replica count of " + s.id());
      }
      return scale.getSpec().getReplicas();
    } catch (KubernetesClientException e) {
      throw new ProviderException("reading the scale of " + s.id() + " failed: " + e.getMessage());
    }
  }

  /** JSON merge patch {@code {"spec":{"replicas":N}}} to {@code .../scale}, bounds-checked. */
  private void writeReplicas(Scalable s, int replicas) {
    if (replicas > s.max() || replicas < s.min()) {
      throw new ProviderException(String.format("replicas %d of %s outside [%d, %d]", replicas, s.id(), s.min(), s.max()));
    }
    try {
      resource(s).subresource("scale").patch(PatchContext.of(PatchType.JSON_MERGE), "{\"spec\":{\"replicas\":" + replicas + "}}");
    } catch (KubernetesClientException e) {
      throw new ProviderException("scaling " + s.id() + " to " + replicas + " failed: " + e.getMessage());
    }
  }

  private static Optional<OwnerReference> owner(GenericKubernetesResource r, String kind) {
    if (r.getMetadata().getOwnerReferences() == null) {
      return Optional.empty();
    }
    return r.getMetadata().getOwnerReferences().stream().filter(o -> kind.equals(o.getKind())).findFirst();
  }

  /** Upstream's normalisation: the last {@code /}-separated segment of the providerID. */
  static String normalise(String providerId) {
    int slash = providerId.lastIndexOf('/');
    return slash < 0 ? providerId : providerId.substring(slash + 1);
  }

  private static String key(String ns, String name) {
    return ns + "/" + name;
  }

  private static Object at(GenericKubernetesResource r, String... path) {
    Object cur = r.getAdditionalProperties().get(path[0]);
    for (int i = 1; i < path.length && cur != null; i++) {
      cur = cur instanceof Map<?, ?> m ? m.get(path[i]) : null;
    }
    return cur;
  }

  private static String stringAt(GenericKubernetesResource r, String... path) {
    Object v = at(r, path);
    return v == null ? null : v.toString();
  }

  private static Integer intAt(GenericKubernetesResource r, String... path) {
    Object v = at(r, path);
    return v instanceof Number n ? n.intValue() : null;
  }
}
