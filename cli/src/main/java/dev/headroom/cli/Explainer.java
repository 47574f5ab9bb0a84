package dev.headroom.cli;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.validation.CapacityBufferValidator;
import dev.headroom.api.validation.InvalidCapacityBufferException;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.InputException;
import dev.headroom.core.buffer.BufferOutcome;
import dev.headroom.core.buffer.BufferReconciler;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.core.buffer.DefaultingPodResolver;
import dev.headroom.core.buffer.InMemoryClusterView;
import dev.headroom.core.buffer.InMemoryTemplateStore;
import dev.headroom.core.buffer.NamespaceResult;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The engine of {@code headroom explain}: one full buffer-controller reconcile of every namespace over the objects
 * of the input files, with the defaulting resolver and an in-memory managed-template store (generation 1 on create,
 * like an API server). Pure apart from its inputs; output is deterministic given {@code now}.
 */
public final class Explainer {

  /** Kinds explain reads, by {@code apiVersion} and {@code kind}; anything else is ignored with a notice. */
  static final Map<String, Class<? extends HasMetadata>> KINDS = Map.of(
      "v1/PodTemplate", PodTemplate.class,
      "apps/v1/Deployment", Deployment.class,
      "apps/v1/ReplicaSet", ReplicaSet.class,
      "apps/v1/StatefulSet", StatefulSet.class,
      "v1/ReplicationController", ReplicationController.class,
      "batch/v1/Job", Job.class,
      "v1/Pod", Pod.class,
      "v1/ResourceQuota", ResourceQuota.class,
      "v1/Namespace", Namespace.class);


  /**
   * What explain produced.
   *
   * @param output the {@code v1 List}: every admitted buffer (v1beta1, input order) and then the managed templates
   * @param diagnostics one-line messages for stderr, in input order
   * @param failed true iff some buffer was rejected or some object could not be read (exit status 1)
   */
  public record Result(KubernetesList output, List<String> diagnostics, boolean failed) {}

  private final BufferSettings settings;

  /** An explainer with the given controller settings. */
  public Explainer(BufferSettings settings) {
    this.settings = settings;
  }

  /** Runs the reconcile over already-loaded documents. */
  public Result explain(List<InputDocument> documents, Instant now) {
    List<String> diagnostics = new ArrayList<>();
    boolean failed = false;
    InMemoryClusterView view = new InMemoryClusterView();
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
    List<CapacityBuffer> buffers = new ArrayList<>();
    Set<String> synthetic = new java.util.HashSet<>();
    int unstamped = 0;
    int unstampedPods = 0;

    for (InputDocument doc : documents) {
      if (doc.kind().equals(CapacityBufferVersion.KIND) && CapacityBufferVersion.fromApiVersion(doc.apiVersion()).isPresent()) {
        CapacityBuffer buffer;
        try {
          buffer = admit(doc);
        } catch (InvalidCapacityBufferException e) {
          diagnostics.add(doc.position() + ": " + CapacityBufferVersion.KIND + " " + namespaceOf(doc) + "/" + doc.name() + " rejected: "
              + CapacityBufferValidator.statusMessage(doc.name(), e.errors()));
          failed = true;
          continue;
        } catch (InputException e) {
          diagnostics.add(e.getMessage());
          failed = true;
          continue;
        }
        if (buffer.getMetadata().getCreationTimestamp() == null) {
          // Keep the order of appearance: timestamp-less buffers sort first, in input order (removed from the output).
          buffer.getMetadata().setCreationTimestamp(Instant.EPOCH.plusSeconds(unstamped++).toString());
          synthetic.add(key(buffer));
        }
        buffers.add(buffer);
        view.add(buffer);
        continue;
      }
      Class<? extends HasMetadata> type = KINDS.get(doc.apiVersion() + "/" + doc.kind());
      if (type == null) {
        diagnostics.add(doc.position() + ": ignoring " + doc.kind() + " " + doc.apiVersion() + " " + (doc.name().isEmpty() ? "" : doc.name() + " ")
            + "(explain reads CapacityBuffer, PodTemplate, Deployment, ReplicaSet, StatefulSet, ReplicationController, Job, Pod, ResourceQuota, Namespace)");
        continue;
      }
      HasMetadata object;
      try {
        object = doc.as(type);
      } catch (InputException e) {
        diagnostics.add(e.getMessage());
        failed = true;
        continue;
      }
      if (object instanceof Namespace) {
        continue;
      }
      if (object.getMetadata() == null) {
        object.setMetadata(new ObjectMeta());
      }
      if (object instanceof ResourceQuota q && q.getStatus() == null && q.getSpec() != null) {
        // As the quota controller would: hard limits from the spec, nothing used yet.
        q.setStatus(new io.fabric8.kubernetes.api.model.ResourceQuotaStatus(q.getSpec().getHard(), new java.util.LinkedHashMap<>()));
      }
      if (object instanceof Pod && object.getMetadata().getCreationTimestamp() == null) {
        // Later in the input counts as newer.
        object.getMetadata().setCreationTimestamp(Instant.EPOCH.plusSeconds(unstampedPods++).toString());
      }
      view.add(object);
      if (object instanceof PodTemplate t) {
        if (t.getMetadata().getNamespace() == null || t.getMetadata().getNamespace().isEmpty()) {
          t.getMetadata().setNamespace(InMemoryClusterView.DEFAULT_NAMESPACE);
        }
        store.put(t);
      }
    }

    BufferReconciler reconciler = new BufferReconciler(settings);
    Map<String, CapacityBuffer> computed = new HashMap<>();
    Set<String> namespaces = new LinkedHashSet<>(view.bufferNamespaces());
    for (String ns : namespaces) {
      NamespaceResult r = reconciler.reconcileNamespace(ns, view, store, new DefaultingPodResolver(), now);
      for (BufferOutcome o : r.buffers()) {
        computed.put(key(o.buffer()), o.buffer());
      }
    }

    KubernetesList list = new KubernetesList();
    list.setApiVersion("v1");
    list.setKind("List");
    List<HasMetadata> items = new ArrayList<>();
    for (CapacityBuffer b : buffers) {
      CapacityBuffer out = computed.getOrDefault(key(b), b);
      if (synthetic.contains(key(b))) {
        out.getMetadata().setCreationTimestamp(null);
      }
      out.setApiVersion(CapacityBuffer.API_VERSION);
      out.setKind(CapacityBuffer.KIND);
      items.add(out);
    }
    for (PodTemplate t : store.written()) {
      t.setApiVersion("v1");
      t.setKind("PodTemplate");
      t.getMetadata().setResourceVersion(null);
      items.add(t);
    }
    list.setItems(items);
    return new Result(list, diagnostics, failed);
  }

  /** True for the kinds explain reads (CapacityBuffer of either version and the kinds listed in the class comment). */
  static boolean reads(InputDocument doc) {
    return (doc.kind().equals(CapacityBufferVersion.KIND) && CapacityBufferVersion.fromApiVersion(doc.apiVersion()).isPresent())
        || KINDS.containsKey(doc.apiVersion() + "/" + doc.kind());
  }

  /** Validates a buffer as the API server would on create; keeps an input {@code status} if it parses. */
  static CapacityBuffer admit(InputDocument doc) throws InvalidCapacityBufferException, InputException {
    CapacityBufferVersion version = CapacityBufferVersion.fromApiVersion(doc.apiVersion()).orElseThrow();
    Map<String, Object> raw = doc.copyOfRaw();
    Object status = raw.get("status");
    CapacityBuffer buffer;
    try {
      buffer = CapacityBufferValidator.admit(raw, version, CapacityBufferValidator.Mode.CREATE);
    } catch (IllegalArgumentException e) {
      throw new InputException(doc.position(), "invalid CapacityBuffer: " + e.getMessage());
    }
    if (buffer.getMetadata() == null) {
      buffer.setMetadata(new ObjectMeta());
    }
    if (buffer.getMetadata().getNamespace() == null || buffer.getMetadata().getNamespace().isEmpty()) {
      buffer.getMetadata().setNamespace(InMemoryClusterView.DEFAULT_NAMESPACE);
    }
    if (status instanceof Map<?, ?>) {
      try {
        buffer.setStatus(dev.headroom.api.Models.fromTree(status, CapacityBufferStatus.class));
      } catch (RuntimeException e) {
        throw new InputException(doc.position(), "invalid CapacityBuffer status: " + dev.headroom.cli.input.PlainMessages.of(e));
      }
    }
    return buffer;
  }

  private static String namespaceOf(InputDocument doc) {
    return doc.namespace().isEmpty() ? InMemoryClusterView.DEFAULT_NAMESPACE : doc.namespace();
  }

  private static String key(CapacityBuffer b) {
    return b.getMetadata().getNamespace() + "/" + b.getMetadata().getName();
  }
}
