package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The managed PodTemplate of a buffer (spec §3.5 template extraction, §3.6): its name, its desired content,
 * semantic equality and the upsert rule.
 */
public final class ManagedTemplates {

  /** Prefix of projected service-account token volumes, stripped from every template ([H-FIX] also live pods). */
  public static final String SERVICE_ACCOUNT_VOLUME_PREFIX = "kube-api-access-";
  /** Longest buffer-name prefix used in the template name: 253 − len("capacitybuffer-") − len("-pod-template"). */
  public static final int MAX_BUFFER_NAME_IN_TEMPLATE = 225;

  private static final String NAME_PREFIX = "capacitybuffer-";
  private static final String NAME_SUFFIX = "-pod-template";
  private static final Set<String> QUANTITY_MAP_KEYS = Set.of("requests", "limits", "overhead");

  private ManagedTemplates() {}

  /** {@code capacitybuffer-<name cut to 225 characters>-pod-template}. */
  public static String name(String bufferName) {
    String n = bufferName == null ? "" : bufferName;
    if (n.length() > MAX_BUFFER_NAME_IN_TEMPLATE) {
      n = n.substring(0, MAX_BUFFER_NAME_IN_TEMPLATE);
    }
    return NAME_PREFIX + n + NAME_SUFFIX;
  }

  /**
   * Template extraction (§3.5): deep copies of the pod's labels, annotations and spec, without
   * {@code kube-api-access-*} volumes and the mounts of such volumes in containers and init containers.
   */
  public static PodTemplateSpec extract(Pod pod) {
    PodTemplateSpec out = new PodTemplateSpec();
    ObjectMeta meta = new ObjectMeta();
    if (pod.getMetadata() != null) {
      meta.setLabels(copyMap(pod.getMetadata().getLabels()));
      meta.setAnnotations(copyMap(pod.getMetadata().getAnnotations()));
    }
    out.setMetadata(meta);
    PodSpec spec = Models.copy(pod.getSpec());
    if (spec != null) {
      stripServiceAccountVolumes(spec);
    }
    out.setSpec(spec);
    return out;
  }

  /** Removes {@code kube-api-access-*} volumes and their mounts (in place). */
  public static void stripServiceAccountVolumes(PodSpec spec) {
    if (spec.getVolumes() != null) {
      spec.setVolumes(new ArrayList<>(spec.getVolumes().stream().filter(v -> !isServiceAccountVolume(v.getName())).toList()));
    }
    for (Container c : Containers.all(spec)) {
      if (c.getVolumeMounts() != null) {
        c.setVolumeMounts(new ArrayList<>(c.getVolumeMounts().stream().filter(m -> !isServiceAccountVolume(m.getName())).toList()));
      }
    }
  }

  private static boolean isServiceAccountVolume(String name) {
    return name != null && name.startsWith(SERVICE_ACCOUNT_VOLUME_PREFIX);
  }

  /**
   * The desired managed template of {@code buffer} with content {@code template}: name per {@link #name},
   * the buffer's namespace, one controller owner reference, no labels or annotations on the object.
   */
  public static PodTemplate desired(CapacityBuffer buffer, PodTemplateSpec template) {
    PodTemplate out = new PodTemplate();
    ObjectMeta meta = new ObjectMeta();
    meta.setName(name(buffer.getMetadata().getName()));
    meta.setNamespace(buffer.getMetadata().getNamespace());
    meta.setOwnerReferences(new ArrayList<>(List.of(ownerReference(buffer))));
    out.setMetadata(meta);
    out.setTemplate(template);
    return out;
  }

  /** {@code {autoscaling.x-k8s.io/v1beta1, CapacityBuffer, <full name>, <uid or "">, controller: true}}. */
  public static OwnerReference ownerReference(CapacityBuffer buffer) {
    OwnerReference ref = new OwnerReference();
    ref.setApiVersion(CapacityBuffer.API_VERSION);
    ref.setKind(CapacityBuffer.KIND);
    ref.setName(buffer.getMetadata().getName());
    ref.setUid(buffer.getMetadata().getUid() == null ? "" : buffer.getMetadata().getUid());
    ref.setController(true);
    return ref;
  }

  /**
   * Upsert rule (§3.6): create when missing; write nothing when the existing {@code .template} is semantically
   * equal; otherwise replace owner references and {@code .template} on the existing object (its labels and
   * annotations are kept) and update it.
   *
   * @return the stored template (its generation is the managed template generation)
   */
  public static PodTemplate upsert(ManagedTemplateStore store, PodTemplate desired) throws ClusterApiException {
    return upsertTracked(store, desired).stored();
  }

  /** The outcome of an upsert: the stored template, and whether a create or update was sent. */
  public record Upserted(PodTemplate stored, boolean written) {}

  /** {@link #upsert}, also telling whether it wrote. */
  public static Upserted upsertTracked(ManagedTemplateStore store, PodTemplate desired) throws ClusterApiException {
    Optional<PodTemplate> existing = store.get(desired.getMetadata().getNamespace(), desired.getMetadata().getName());
    if (existing.isEmpty()) {
      return new Upserted(store.create(desired), true);
    }
    PodTemplate current = existing.get();
    if (semanticallyEqual(current.getTemplate(), desired.getTemplate())) {
      return new Upserted(current, false);
    }
    current.getMetadata().setOwnerReferences(new ArrayList<>(desired.getMetadata().getOwnerReferences()));
    current.setTemplate(Models.copy(desired.getTemplate()));
    return new Upserted(store.update(current), true);
  }

  /**
   * Semantic equality of two template contents: quantities by numeric value ({@code 1} equals {@code 1000m}),
   * null lists and maps equal to empty ones, everything else by value.
   */
  public static boolean semanticallyEqual(PodTemplateSpec a, PodTemplateSpec b) {
    return Objects.equals(canonical(a), canonical(b));
  }

  /** The canonical form that {@link #semanticallyEqual} compares (null for empty content). */
  static Object canonical(PodTemplateSpec template) {
    return normalise(Models.tree(template), null);
  }

  /** Drops nulls and empty collections; rewrites quantity maps to canonical numbers. */
  private static Object normalise(Object node, String key) {
    if (node instanceof Map<?, ?> map) {
      Map<String, Object> out = new LinkedHashMap<>();
      boolean quantities = key != null && QUANTITY_MAP_KEYS.contains(key);
      for (Map.Entry<?, ?> e : map.entrySet()) {
        String k = String.valueOf(e.getKey());
        Object v = quantities ? canonicalQuantity(e.getValue()) : normalise(e.getValue(), k);
        if (!isEmpty(v)) {
          out.put(k, v);
        }
      }
      return out.isEmpty() ? null : out;
    }
    if (node instanceof List<?> list) {
      List<Object> out = new ArrayList<>();
      for (Object o : list) {
        out.add(normalise(o, null));
      }
      return out.isEmpty() ? null : out;
    }
    if ("sizeLimit".equals(key)) {
      return canonicalQuantity(node);
    }
    return node;
  }

  private static Object canonicalQuantity(Object value) {
    if (value == null) {
      return null;
    }
    String text = String.valueOf(value);
    if (!Quantities.isValid(text)) {
      return text;
    }
    BigDecimal v = Quantities.value(text);
    return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
  }

  private static boolean isEmpty(Object v) {
    return v == null || (v instanceof Map<?, ?> m && m.isEmpty()) || (v instanceof List<?> l && l.isEmpty());
  }

  private static <K, V> Map<K, V> copyMap(Map<K, V> in) {
    return in == null ? null : new LinkedHashMap<>(in);
  }
}
