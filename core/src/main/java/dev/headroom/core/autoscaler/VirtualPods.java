package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Volume;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Virtual pods: in-memory pods made from a CapacityBuffer's managed template (capacitybuffer spec §7.4),
 * never written to the API.
 */
public final class VirtualPods {

  /** Safe-to-evict annotation key. */
  public static final String SAFE_TO_EVICT = "cluster-autoscaler.kubernetes.io/safe-to-evict";
  /** Owner reference apiVersion. */
  public static final String OWNER_API_VERSION = "autoscaling.x-k8s.io/v1beta1";
  /** Owner reference kind. */
  public static final String OWNER_KIND = "CapacityBuffer";
  /** Priority of every virtual pod. */
  public static final int PRIORITY = Integer.MIN_VALUE;

  private VirtualPods() {}

  /** True iff the pod carries a virtual-pod marker ({@link SchedulingCompiler#isVirtual(Map)}). */
  public static boolean isVirtual(Pod pod) {
    if (pod.getMetadata() == null || pod.getMetadata().getAnnotations() == null) {
      return false;
    }
    return SchedulingCompiler.isVirtual(pod.getMetadata().getAnnotations());
  }

  /** Name of chunk {@code i} (1-based). */
  public static String name(String buffer, int i) {
    return "capacity-buffer-" + buffer + "-" + i;
  }

  /** Builds the {@code replicas} virtual pods of a buffer from its managed template. */
  public static List<Pod> build(CapacityBuffer buffer, PodTemplate template, int replicas) {
    ObjectMeta bm = buffer.getMetadata();
    PodSpec base = template.getTemplate() == null || template.getTemplate().getSpec() == null
        ? new PodSpec()
        : new io.fabric8.kubernetes.api.model.PodSpecBuilder(template.getTemplate().getSpec()).build();
    base.setNodeName(null);
    sanitise(base);
    base.setPriority(PRIORITY);
    ObjectMeta tm = template.getTemplate() == null || template.getTemplate().getMetadata() == null
        ? new ObjectMeta()
        : template.getTemplate().getMetadata();
    Map<String, String> labels = tm.getLabels() == null ? Map.of() : tm.getLabels();
    String topologyKey = gangTopologyKey(buffer);
    if (topologyKey != null) {
      // a gang buffer inside one topology domain: every chunk is required next to the others
      labels = new LinkedHashMap<>(labels);
      labels.put(PodGroups.GANG_BUFFER_LABEL, bm.getUid());
      base.setAffinity(withSameDomain(base.getAffinity(), bm, topologyKey));
    }
    Map<String, String> annotations = new LinkedHashMap<>(tm.getAnnotations() == null ? Map.of() : tm.getAnnotations());
    annotations.put(SchedulingCompiler.CA_FAKE_POD_ANNOTATION, SchedulingCompiler.CA_FAKE_POD_VALUE);
    annotations.put(SAFE_TO_EVICT, "true");
    List<String> finalizers = tm.getFinalizers() == null ? List.of() : List.copyOf(tm.getFinalizers());
    // Like the spec, labels, annotations, finalizers and the owner reference are shared, unmodifiable, by all
    // chunks of a buffer: the core never mutates pods, and a buffer may have thousands of chunks.
    Map<String, String> sharedLabels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
    Map<String, String> sharedAnnotations = java.util.Collections.unmodifiableMap(annotations);
    List<io.fabric8.kubernetes.api.model.OwnerReference> owners = List.of(new OwnerReferenceBuilder()
        .withApiVersion(OWNER_API_VERSION).withKind(OWNER_KIND)
        .withName(bm.getName()).withUid(bm.getUid()).withController(true).build());
    List<Pod> out = new ArrayList<>(replicas);
    for (int i = 1; i <= replicas; i++) {
      out.add(chunk(bm, i, sharedLabels, sharedAnnotations, finalizers, owners, base));
    }
    return out;
  }

  /**
   * The virtual pods of a buffer with {@code replicas} chunks, given {@code built}: the non-empty result of
   * {@link #build} for the same buffer and template with another count. Chunks are numbered, so the first ones
   * are taken over and only the missing ones are made, sharing the built pods' spec and metadata parts; the
   * result equals {@code build(buffer, template, replicas)}.
   */
  public static List<Pod> resize(List<Pod> built, CapacityBuffer buffer, int replicas) {
    if (replicas <= built.size()) {
      return new ArrayList<>(built.subList(0, replicas));
    }
    Pod first = built.get(0);
    ObjectMeta fm = first.getMetadata();
    List<String> finalizers = fm.getFinalizers() == null ? List.of() : fm.getFinalizers();
    List<Pod> out = new ArrayList<>(replicas);
    out.addAll(built);
    for (int i = built.size() + 1; i <= replicas; i++) {
      out.add(chunk(buffer.getMetadata(), i, fm.getLabels(), fm.getAnnotations(), finalizers, fm.getOwnerReferences(),
          first.getSpec()));
    }
    return out;
  }

  private static Pod chunk(ObjectMeta bm, int i, Map<String, String> labels, Map<String, String> annotations,
      List<String> finalizers, List<io.fabric8.kubernetes.api.model.OwnerReference> owners, PodSpec spec) {
    Pod p = new Pod();
    ObjectMeta m = new ObjectMeta();
    m.setName(name(bm.getName(), i));
    m.setNamespace(bm.getNamespace());
    m.setUid(bm.getUid() + "-" + i);
    m.setLabels(labels);
    m.setAnnotations(annotations);
    if (!finalizers.isEmpty()) {
      m.setFinalizers(finalizers);
    }
    m.setOwnerReferences(owners);
    p.setMetadata(m);
    // The spec is shared by all chunks of a buffer: the core never mutates pod specs.
    p.setSpec(spec);
    return p;
  }

  /** The topology key of a gang buffer's chunks ({@code headroom.dev/gang-topology-key}), or null. */
  static String gangTopologyKey(CapacityBuffer buffer) {
    Map<String, String> a = buffer.getMetadata().getAnnotations();
    return PodGroups.isGangBuffer(a) ? PodGroups.topologyKey(a) : null;
  }

  /** {@code affinity} plus a required pod affinity to the buffer's other chunks on {@code topologyKey}. */
  private static io.fabric8.kubernetes.api.model.Affinity withSameDomain(io.fabric8.kubernetes.api.model.Affinity affinity,
      ObjectMeta bm, String topologyKey) {
    io.fabric8.kubernetes.api.model.Affinity out = affinity == null ? new io.fabric8.kubernetes.api.model.Affinity()
        : new io.fabric8.kubernetes.api.model.AffinityBuilder(affinity).build();
    io.fabric8.kubernetes.api.model.PodAffinity pa = out.getPodAffinity() == null ? new io.fabric8.kubernetes.api.model.PodAffinity()
        : out.getPodAffinity();
    List<io.fabric8.kubernetes.api.model.PodAffinityTerm> terms = pa.getRequiredDuringSchedulingIgnoredDuringExecution() == null
        ? new ArrayList<>() : new ArrayList<>(pa.getRequiredDuringSchedulingIgnoredDuringExecution());
    terms.add(new io.fabric8.kubernetes.api.model.PodAffinityTermBuilder()
        .withNewLabelSelector().addToMatchLabels(PodGroups.GANG_BUFFER_LABEL, bm.getUid()).endLabelSelector()
        .withNamespaces(bm.getNamespace()).withTopologyKey(topologyKey).build());
    pa.setRequiredDuringSchedulingIgnoredDuringExecution(terms);
    out.setPodAffinity(pa);
    return out;
  }

  /** Removes PVC and ephemeral volumes and every mount or device that references them. */
  static void sanitise(PodSpec spec) {
    if (spec.getVolumes() == null) {
      return;
    }
    Set<String> removed = new HashSet<>();
    List<Volume> kept = new ArrayList<>();
    for (Volume v : spec.getVolumes()) {
      if (v.getPersistentVolumeClaim() != null || v.getEphemeral() != null) {
        removed.add(v.getName());
      } else {
        kept.add(v);
      }
    }
    if (removed.isEmpty()) {
      return;
    }
    spec.setVolumes(kept);
    List<Container> all = new ArrayList<>();
    if (spec.getContainers() != null) {
      all.addAll(spec.getContainers());
    }
    if (spec.getInitContainers() != null) {
      all.addAll(spec.getInitContainers());
    }
    for (Container c : all) {
      if (c.getVolumeMounts() != null) {
        c.setVolumeMounts(new ArrayList<>(c.getVolumeMounts().stream().filter(m -> !removed.contains(m.getName())).toList()));
      }
      if (c.getVolumeDevices() != null) {
        c.setVolumeDevices(new ArrayList<>(c.getVolumeDevices().stream().filter(d -> !removed.contains(d.getName())).toList()));
      }
    }
  }
}
