package dev.headroom.core.autoscaler;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Pods that are scheduled as a unit (a gang): which group a pod belongs to and how many of the group must get
 * capacity together ({@code minMember}). The all-or-nothing scale-up ({@link GangScaleUp}) works on these
 * values only, so it does not depend on where a group is declared. Sources read here:
 * <ul>
 *   <li>{@link Source#COSCHEDULING}: the pod label {@code scheduling.x-k8s.io/pod-group} naming a
 *       {@code scheduling.x-k8s.io} PodGroup in the pod's namespace (the kube-scheduler coscheduling plugin);
 *   <li>{@link Source#VOLCANO}: the pod annotation {@code scheduling.k8s.io/group-name} naming a
 *       {@code scheduling.volcano.sh} PodGroup;
 *   <li>{@link Source#BUFFER}: the virtual pods of a CapacityBuffer annotated {@code headroom.dev/gang: "true"}
 *       (minMember is all of them);
 *   <li>{@link Source#PROVISIONING_REQUEST}: the pod annotation {@code autoscaling.x-k8s.io/consume-provisioning-request}
 *       (or its deprecated {@code cluster-autoscaler.kubernetes.io/} spelling) naming a ProvisioningRequest in the pod's
 *       namespace whose group is declared (minMember is the request's total count; {@code provisioning.ProvisioningRequests}
 *       declares the group of the best-effort-atomic request whose pods a loop scales up for).
 * </ul>
 * A pod whose PodGroup object is not known is not grouped (the scheduler plugins do not gang it either).
 */
public final class PodGroups {

  /** Pod label of the coscheduling plugin. */
  public static final String COSCHEDULING_LABEL = "scheduling.x-k8s.io/pod-group";
  /** API group of the coscheduling plugin's PodGroup. */
  public static final String COSCHEDULING_API_GROUP = "scheduling.x-k8s.io";
  /** Pod annotation of Volcano. */
  public static final String VOLCANO_ANNOTATION = "scheduling.k8s.io/group-name";
  /** API group of Volcano's PodGroup. */
  public static final String VOLCANO_API_GROUP = "scheduling.volcano.sh";
  /** Kind of both PodGroup objects. */
  public static final String POD_GROUP_KIND = "PodGroup";
  /** CapacityBuffer annotation [H-EXT]: {@code "true"} makes the buffer's virtual pods one group. */
  public static final String GANG_ANNOTATION = "headroom.dev/gang";
  /** CapacityBuffer annotation [H-EXT]: the node label whose value all of a gang buffer's virtual pods share. */
  public static final String GANG_TOPOLOGY_KEY_ANNOTATION = "headroom.dev/gang-topology-key";
  /** Label put on a gang buffer's virtual pods (value: the buffer UID), matched by their pod affinity. */
  public static final String GANG_BUFFER_LABEL = "headroom.dev/gang-buffer";

  /** Where a group is declared. */
  public enum Source {
    COSCHEDULING("coscheduling"), VOLCANO("volcano"), BUFFER("gang buffer"),
    PROVISIONING_REQUEST("provisioning request");

    private final String text;

    Source(String text) {
      this.text = text;
    }

    /** The name shown in messages. */
    public String text() {
      return text;
    }

    /** The source of a PodGroup object of API group {@code apiGroup}, if it is one of the supported ones. */
    public static Optional<Source> ofApiGroup(String apiGroup) {
      return switch (apiGroup) {
        case COSCHEDULING_API_GROUP -> Optional.of(COSCHEDULING);
        case VOLCANO_API_GROUP -> Optional.of(VOLCANO);
        default -> Optional.empty();
      };
    }
  }

  /** One group: its source, namespace and name. */
  public record Key(Source source, String namespace, String name) {
    @Override
    public String toString() {
      return namespace + "/" + name;
    }
  }

  /** A declared group and its minMember (a PodGroup object's {@code spec.minMember}). */
  public record Group(Key key, int minMember) {}

  /** No groups declared. */
  public static final PodGroups NONE = new PodGroups(List.of());

  private final Map<Key, Group> declared = new HashMap<>();

  /** The groups {@code declared} (a later one with the same key wins). */
  public PodGroups(List<Group> declared) {
    for (Group g : declared) {
      this.declared.put(g.key(), g);
    }
  }

  /** The declared groups. */
  public List<Group> groups() {
    return List.copyOf(declared.values());
  }

  /** These groups and {@code more} (one of {@code more} with the key of one of these wins). */
  public PodGroups with(List<Group> more) {
    if (more.isEmpty()) {
      return this;
    }
    List<Group> all = new java.util.ArrayList<>(declared.values());
    all.addAll(more);
    return new PodGroups(all);
  }

  /** The group of a ProvisioningRequest {@code namespace/name}: all {@code count} of its pods. */
  public static Group provisioningRequest(String namespace, String name, int count) {
    return new Group(new Key(Source.PROVISIONING_REQUEST, namespace, name), count);
  }

  /** True when no group is declared. */
  public boolean isEmpty() {
    return declared.isEmpty();
  }

  /** The declared group the real pod {@code p} belongs to, if any. */
  public Optional<Group> groupOf(Pod p) {
    if (declared.isEmpty() || p.getMetadata() == null) {
      return Optional.empty();
    }
    String ns = p.getMetadata().getNamespace() == null ? "default" : p.getMetadata().getNamespace();
    Group g = lookup(Source.COSCHEDULING, ns, p.getMetadata().getLabels(), COSCHEDULING_LABEL);
    if (g == null) {
      g = lookup(Source.VOLCANO, ns, p.getMetadata().getAnnotations(), VOLCANO_ANNOTATION);
    }
    if (g == null) {
      g = lookup(Source.PROVISIONING_REQUEST, ns, p.getMetadata().getAnnotations(), ProvisioningRequest.CONSUME_ANNOTATION);
    }
    if (g == null) {
      g = lookup(Source.PROVISIONING_REQUEST, ns, p.getMetadata().getAnnotations(),
          ProvisioningRequest.DEPRECATED_CONSUME_ANNOTATION);
    }
    return Optional.ofNullable(g);
  }

  private Group lookup(Source source, String ns, Map<String, String> meta, String key) {
    if (meta == null) {
      return null;
    }
    String name = meta.get(key);
    return name == null || name.isEmpty() ? null : declared.get(new Key(source, ns, name));
  }

  /**
   * A PodGroup's {@code spec.minMember} as read from YAML or JSON ({@code spec} the object's {@code spec} map or
   * null): empty unless it is a positive integer. {@code plan} reports an empty result at the field's line; the
   * cluster runtime does not group the pods of such a PodGroup.
   */
  public static OptionalInt minMember(Object spec) {
    Object min = spec instanceof Map<?, ?> m ? m.get("minMember") : null;
    if (!(min instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 1
        || n.doubleValue() > Integer.MAX_VALUE) {
      return OptionalInt.empty();
    }
    return OptionalInt.of(n.intValue());
  }

  /** True when the buffer annotations ask for a gang buffer. */
  public static boolean isGangBuffer(Map<String, String> annotations) {
    return annotations != null && "true".equals(annotations.get(GANG_ANNOTATION));
  }

  /** The topology key of a gang buffer, or null for none. */
  public static String topologyKey(Map<String, String> annotations) {
    if (annotations == null) {
      return null;
    }
    String k = annotations.get(GANG_TOPOLOGY_KEY_ANNOTATION);
    return k == null || k.isBlank() ? null : k.trim();
  }

}
