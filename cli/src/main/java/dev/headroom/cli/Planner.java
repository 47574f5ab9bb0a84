package dev.headroom.cli;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.provisioning.ProvisioningRequestStatusWriter;
import dev.headroom.core.provisioning.ProvisioningRequests;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.cli.input.InputDocument;
import dev.headroom.cli.input.InputException;
import dev.headroom.cli.input.YamlInputLoader;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.autoscaler.memory.DryRun;
import dev.headroom.core.autoscaler.memory.StaticClusterView;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.core.buffer.InMemoryClusterView;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import dev.headroom.core.nodegroup.NodeGroupFormatException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import dev.headroom.core.autoscaler.PodGroups;
import java.util.Set;

/**
 * The engine of {@code headroom plan}: turns the objects of the input files into a static cluster (nodes, pods,
 * node groups, buffers with their managed templates) and runs one autoscaler iteration over it with
 * {@link DryRun}. Buffers without a status are first translated by {@link Explainer}, exactly as
 * {@code headroom explain} shows them; buffers with a status are used as given.
 */
public final class Planner {

  /**
   * What plan read and decided; {@code provisioningRequests} is each ProvisioningRequest's part in the iteration
   * (empty without any).
   */
  public record Result(DryRun run, List<String> diagnostics, boolean failed,
      List<ProvisioningRequests.Decision> provisioningRequests) {
    public Result(DryRun run, List<String> diagnostics, boolean failed) {
      this(run, diagnostics, failed, List.of());
    }
  }

  /** The kinds plan reads besides those of explain. */
  static final String READS = "NodeGroup (headroom.dev/v1alpha1), Node, Pod, PodDisruptionBudget, "
      + "PodGroup (scheduling.x-k8s.io, scheduling.volcano.sh), ProvisioningRequest (autoscaling.x-k8s.io/v1, v1beta1), "
      + "and what explain reads";

  /** Prefix of the UID given to an input buffer that has none. */
  static final String SYNTHETIC_UID_PREFIX = "plan-";

  private final YamlInputLoader loader;

  /** A planner over documents read by {@code loader} (used to point errors at the offending field's line). */
  public Planner(YamlInputLoader loader) {
    this.loader = loader;
  }

  /** Reads the documents and runs one iteration; {@code run} is null when the input has errors. */
  public Result plan(List<InputDocument> documents, AutoscalerOptions options, Instant now) {
    return plan(documents, options, null, now);
  }

  /**
   * {@link #plan(List, AutoscalerOptions, Instant)}, with {@code whole} (if not null) instead of {@code options}
   * when the input is beyond the provisioning pass's estimate budget: (groups below their maximum) × (pending pods)
   * over {@code provisioning-pass-estimate-budget}, or a budget of 0. There the pass alone decides, and one loop of
   * {@code run} grows only the expander's pick of it, so the rest of a large burst would wait for the loops after;
   * {@code plan} has no loop after, so it shows the whole plan. Within the budget the iteration is {@code run}'s, as
   * the Cluster Autoscaler's per-group path decides it.
   */
  public Result plan(List<InputDocument> documents, AutoscalerOptions options, AutoscalerOptions whole, Instant now) {
    List<String> diagnostics = new ArrayList<>();
    boolean failed = false;
    Map<String, NodeGroup> groups = new LinkedHashMap<>();
    StaticClusterView.Builder view = StaticClusterView.builder();
    List<Node> nodes = new ArrayList<>();
    Set<String> nodeNames = new HashSet<>();
    List<InputDocument> forExplain = new ArrayList<>();
    Map<String, InputDocument> statusBuffers = new LinkedHashMap<>();
    // pods already read into the view: explain needs them only when some buffer may be sized from them
    Set<InputDocument> podsRead = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    boolean anyBuffer = false;

    for (InputDocument doc : documents) {
      try {
        if (NodeGroupDocument.isNodeGroup(doc.raw())) {
          NodeGroup g;
          try {
            g = NodeGroupDocument.parse(doc.raw());
          } catch (NodeGroupFormatException e) {
            throw new InputException(at(doc, e.path()), NodeGroupDocument.KIND + " " + name(doc) + ": " + e.getMessage());
          }
          if (groups.putIfAbsent(g.id(), g) != null) {
            throw new InputException(at(doc, "metadata.name"), NodeGroupDocument.KIND + " " + g.id() + " is defined twice");
          }
        } else if (doc.is("v1", "Node")) {
          Node n = doc.as(Node.class);
          if (n.getMetadata() == null || n.getMetadata().getName() == null || n.getMetadata().getName().isEmpty()) {
            throw new InputException(doc.position(), "Node without metadata.name");
          }
          if (!nodeNames.add(n.getMetadata().getName())) {
            throw new InputException(at(doc, "metadata.name"), "Node " + n.getMetadata().getName() + " is defined twice");
          }
          String since = n.getMetadata().getAnnotations() == null ? null : n.getMetadata().getAnnotations().get(Nodes.UNNEEDED_SINCE);
          if (since != null && Nodes.time(since).isEmpty()) {
            throw new InputException(at(doc, "metadata.annotations." + Nodes.UNNEEDED_SINCE),
                "Node " + n.getMetadata().getName() + ": annotation " + Nodes.UNNEEDED_SINCE + " \"" + since + "\" is not an RFC 3339 time");
          }
          nodes.add(n);
        } else if (isProvisioningRequest(doc)) {
          view.provisioningRequest(provisioningRequest(doc));
        } else if (podGroupSource(doc).isPresent()) {
          view.podGroup(podGroup(doc, podGroupSource(doc).get()));
        } else if (doc.is("policy/v1", "PodDisruptionBudget")) {
          view.podDisruptionBudget(namespaced(doc.as(PodDisruptionBudget.class)));
        } else if (Explainer.reads(doc)) {
          // a pod or template that does not convert is reported here, once, and not given to explain, which would
          // convert it again and say the same
          if (doc.is("v1", "Pod")) {
            view.pod(namespaced(doc.as(Pod.class)));
            podsRead.add(doc);
          } else if (doc.is("v1", "PodTemplate")) {
            view.podTemplate(namespaced(doc.as(PodTemplate.class)));
          } else if (doc.kind().equals(CapacityBufferVersion.KIND)) {
            anyBuffer = true;
            if (doc.raw().get("status") instanceof Map<?, ?>) {
              statusBuffers.put(namespaceOf(doc) + "/" + doc.name(), doc);
            }
          }
          forExplain.add(doc);
        } else {
          diagnostics.add(doc.position() + ": ignoring " + doc.kind() + " " + doc.apiVersion() + " "
              + (doc.name().isEmpty() ? "" : doc.name() + " ") + "(plan reads " + READS + ")");
        }
      } catch (InputException e) {
        diagnostics.add(e.getMessage());
        failed = true;
      }
    }

    // Buffers: translated as explain shows them, or used with their own status. Without any buffer, the pods
    // change nothing explain reports (it reports buffers and the templates they write), so they are left out of it
    // rather than converted and copied a second time.
    if (!anyBuffer && !podsRead.isEmpty()) {
      forExplain.removeIf(podsRead::contains);
    }
    Explainer.Result explained = new Explainer(BufferSettings.defaults().withStandbyCapacity(options.standbyCapacity())).explain(forExplain, now);
    diagnostics.addAll(explained.diagnostics());
    failed |= explained.failed();
    for (HasMetadata item : explained.output().getItems()) {
      if (item instanceof CapacityBuffer b) {
        InputDocument given = statusBuffers.get(b.getMetadata().getNamespace() + "/" + b.getMetadata().getName());
        if (given != null) {
          try {
            b = Explainer.admit(given);
          } catch (Exception e) {
            diagnostics.add(given.position() + ": " + e.getMessage());
            failed = true;
            continue;
          }
        }
        if (b.getMetadata().getUid() == null || b.getMetadata().getUid().isEmpty()) {
          // Virtual pods take their UIDs from the buffer's; files rarely carry one.
          b.getMetadata().setUid(SYNTHETIC_UID_PREFIX + b.getMetadata().getNamespace() + "-" + b.getMetadata().getName());
        }
        view.buffer(b);
      } else if (item instanceof PodTemplate t) {
        view.podTemplate(t);
      }
    }
    if (failed) {
      return new Result(null, diagnostics, true);
    }
    view.nodes(nodes);
    StaticClusterView built = view.build();
    AutoscalerOptions used = whole != null && beyondBudget(options, groups.values(), built) ? whole : options;
    if (built.provisioningRequests().isEmpty()) {
      return new Result(DryRun.of(used, built, List.copyOf(groups.values()), now), diagnostics, false);
    }
    ProvisioningRequests.Round round = new ProvisioningRequests(ProvisioningRequests.Settings.DEFAULTS, SnapshotSimulation::new)
        .begin(built, now);
    DryRun run = DryRun.of(used, round.view(), List.copyOf(groups.values()), now);
    return new Result(run, diagnostics, false, round.finish(run.result(), ProvisioningRequestStatusWriter.NONE));
  }

  private static boolean isProvisioningRequest(InputDocument doc) {
    return ProvisioningRequest.KIND.equals(doc.kind())
        && (ProvisioningRequest.API_VERSION.equals(doc.apiVersion()) || V1BETA1.equals(doc.apiVersion()));
  }

  /** The served, deprecated version of the ProvisioningRequest CRD: the same fields as v1. */
  private static final String V1BETA1 = ProvisioningRequest.GROUP + "/v1beta1";

  /**
   * A ProvisioningRequest document, checked as its CRD's schema would admit it (the fields Headroom reads), each
   * error at its field's line.
   */
  private ProvisioningRequest provisioningRequest(InputDocument doc) throws InputException {
    String name = doc.name();
    if (name.isEmpty()) {
      throw new InputException(doc.position(), "ProvisioningRequest without metadata.name");
    }
    String what = "ProvisioningRequest " + name + ": ";
    if (!(doc.raw().get("spec") instanceof Map<?, ?> spec)) {
      throw new InputException(doc.position(), what + "spec is required");
    }
    Object cls = spec.get("provisioningClassName");
    if (!(cls instanceof String c) || c.isEmpty()) {
      throw new InputException(at(doc, "spec.provisioningClassName"), what + "spec.provisioningClassName is required"
          + (cls == null ? "" : ", a non-empty string"));
    }
    if (!(spec.get("podSets") instanceof List<?> sets) || sets.isEmpty() || sets.size() > 32) {
      throw new InputException(at(doc, "spec.podSets"), what + "spec.podSets must be a list of 1 to 32 items");
    }
    for (int i = 0; i < sets.size(); i++) {
      String at = "spec.podSets[" + i + "]";
      Map<?, ?> set = sets.get(i) instanceof Map<?, ?> m ? m : Map.of();
      Object ref = set.get("podTemplateRef") instanceof Map<?, ?> r ? r.get("name") : null;
      if (!(ref instanceof String r) || r.isEmpty()) {
        throw new InputException(at(doc, at + ".podTemplateRef.name"), what + at + ".podTemplateRef.name is required");
      }
      Object count = set.get("count");
      if (!(count instanceof Number n) || n.doubleValue() != Math.rint(n.doubleValue()) || n.doubleValue() < 1
          || n.doubleValue() > Integer.MAX_VALUE) {
        throw new InputException(at(doc, at + ".count"), what + at + ".count must be an integer of at least 1"
            + (count == null ? "" : ", not " + count));
      }
    }
    ProvisioningRequest pr = namespaced(doc.as(ProvisioningRequest.class));
    pr.setApiVersion(ProvisioningRequest.API_VERSION);
    if (pr.getMetadata().getUid() == null || pr.getMetadata().getUid().isEmpty()) {
      pr.getMetadata().setUid(SYNTHETIC_UID_PREFIX + pr.getMetadata().getNamespace() + "-" + name);
    }
    return pr;
  }

  /** (groups below their maximum) × (unbound pods) over the estimate budget, or a budget of 0. */
  static boolean beyondBudget(AutoscalerOptions options, java.util.Collection<NodeGroup> groups, StaticClusterView view) {
    if (!options.provisioningPass()) {
      return false;
    }
    long growable = groups.stream().filter(g -> g.targetSize() < g.maxSize()).count();
    long pending = view.pods().stream().filter(p -> p.getSpec() == null || p.getSpec().getNodeName() == null
        || p.getSpec().getNodeName().isEmpty()).count();
    int budget = options.provisioningPassEstimateBudget();
    return budget <= 0 || growable * pending > budget;
  }

  /** The group source of a PodGroup document (coscheduling or Volcano), if it is one. */
  private static Optional<PodGroups.Source> podGroupSource(InputDocument doc) {
    if (!PodGroups.POD_GROUP_KIND.equals(doc.kind()) || doc.apiVersion() == null) {
      return Optional.empty();
    }
    int slash = doc.apiVersion().indexOf('/');
    return slash < 0 ? Optional.empty() : PodGroups.Source.ofApiGroup(doc.apiVersion().substring(0, slash));
  }

  /** A PodGroup document's group: its namespace, name and {@code spec.minMember} (a positive integer). */
  private PodGroups.Group podGroup(InputDocument doc, PodGroups.Source source) throws InputException {
    String name = doc.name();
    if (name.isEmpty()) {
      throw new InputException(doc.position(), "PodGroup without metadata.name");
    }
    Object spec = doc.raw().get("spec");
    java.util.OptionalInt minMember = PodGroups.minMember(spec);
    if (minMember.isEmpty()) {
      Object min = spec instanceof Map<?, ?> m ? m.get("minMember") : null;
      throw new InputException(min == null ? at(doc, "spec") : at(doc, "spec.minMember"),
          "PodGroup " + name + ": spec.minMember must be a positive integer" + (min == null ? "" : ", not " + min));
    }
    return new PodGroups.Group(new PodGroups.Key(source, namespaceOf(doc), name), minMember.getAsInt());
  }

  private dev.headroom.cli.input.Position at(InputDocument doc, String path) {
    return new dev.headroom.cli.input.Position(doc.position().file(), loader.lineOf(doc, path));
  }

  private static String name(InputDocument doc) {
    return doc.name().isEmpty() ? "(unnamed)" : doc.name();
  }

  private static String namespaceOf(InputDocument doc) {
    return doc.namespace().isEmpty() ? InMemoryClusterView.DEFAULT_NAMESPACE : doc.namespace();
  }

  private static <T extends HasMetadata> T namespaced(T object) {
    if (object.getMetadata() == null) {
      object.setMetadata(new ObjectMeta());
    }
    if (object.getMetadata().getNamespace() == null || object.getMetadata().getNamespace().isEmpty()) {
      object.getMetadata().setNamespace(InMemoryClusterView.DEFAULT_NAMESPACE);
    }
    return object;
  }
}
