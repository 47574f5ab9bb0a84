package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.core.buffer.DefaultingPodResolver;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.PodStatus;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.regex.Pattern;

/**
 * The pods a request provisions for, made as the Cluster Autoscaler makes them
 * ({@code cluster-autoscaler/provisioningrequest/pods/pods.go}): for podSet {@code i}, {@code count} pods from its
 * PodTemplate (labels, annotations, finalizers and spec copied; requests defaulted from limits, as
 * {@code SetDefaults_Pod} does), named {@code <request>-<i>-<j>} with UID {@code <namespace>/<name>}, owned by the
 * request (controller), created when the request was, annotated with the request's name and class. Headroom marks them
 * {@code PodScheduled=False/Unschedulable}, which is how its pending-demand rule recognises pods to scale up for (the
 * Cluster Autoscaler appends them to its unschedulable list directly).
 */
public final class RequestPods {
  private static final Pattern DNS1123_SUBDOMAIN =
      Pattern.compile("^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$");

  private RequestPods() {}

  /** The pods, or why they cannot be made ({@link #error} is the Cluster Autoscaler's text). */
  public record Built(List<Pod> pods, String error) {
    public boolean ok() {
      return error == null;
    }
  }

  /** The total number of pods the request provisions for (CA's {@code PodCount}). */
  public static int count(ProvisioningRequest pr) {
    int n = 0;
    for (PodSet s : podSets(pr)) {
      n += s.getCount();
    }
    return n;
  }

  /**
   * The request's pods, its PodTemplates looked up by {@code templates} (namespace, name). A missing template is
   * CA's error {@code missing pod templates, N pod templates were referenced, M templates were missing: a,b}.
   */
  public static Built of(ProvisioningRequest pr, BiFunction<String, String, Optional<PodTemplate>> templates) {
    String ns = namespace(pr);
    List<PodSet> sets = podSets(pr);
    List<PodTemplate> found = new ArrayList<>();
    List<String> missing = new ArrayList<>();
    for (PodSet s : sets) {
      String name = s.getPodTemplateRef() == null ? "" : s.getPodTemplateRef().getName();
      Optional<PodTemplate> t = name == null || name.isEmpty() ? Optional.empty() : templates.apply(ns, name);
      if (t.isPresent()) {
        found.add(t.get());
      } else {
        missing.add(name == null ? "" : name);
      }
    }
    if (!missing.isEmpty()) {
      return new Built(List.of(), "missing pod templates, " + sets.size() + " pod templates were referenced, "
          + missing.size() + " templates were missing: " + String.join(",", missing));
    }
    String prName = pr.getMetadata().getName();
    // kube-controller-manager's getPodsPrefix: "<name>-" when it is a valid name prefix (its trailing dash masked)
    String generateName = DNS1123_SUBDOMAIN.matcher(prName + "a").matches() && prName.length() + 1 <= 253
        ? prName + "-" : prName;
    DefaultingPodResolver resolver = new DefaultingPodResolver();
    List<Pod> pods = new ArrayList<>();
    for (int i = 0; i < sets.size(); i++) {
      for (int j = 0; j < sets.get(i).getCount(); j++) {
        Pod pod = resolver.resolve(ns, found.get(i).getTemplate());
        String name = generateName + i + "-" + j;
        pod.getMetadata().setGenerateName(generateName);
        pod.getMetadata().setName(name);
        pod.getMetadata().setUid(ns + "/" + name);
        pod.getMetadata().setCreationTimestamp(pr.getMetadata().getCreationTimestamp());
        pod.getMetadata().setOwnerReferences(List.of(owner(pr)));
        if (pod.getMetadata().getAnnotations() == null) {
          pod.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        pod.getMetadata().getAnnotations().put(ProvisioningRequest.CONSUME_ANNOTATION, prName);
        pod.getMetadata().getAnnotations().put(ProvisioningRequest.CLASS_ANNOTATION, ProvisioningClasses.className(pr));
        PodStatus status = new PodStatus();
        status.setPhase("Pending");
        PodCondition scheduled = new PodCondition();
        scheduled.setType("PodScheduled");
        scheduled.setStatus("False");
        scheduled.setReason("Unschedulable");
        status.setConditions(List.of(scheduled));
        pod.setStatus(status);
        pods.add(pod);
      }
    }
    return new Built(pods, null);
  }

  /**
   * The request a pod consumes, {@code namespace/name}, from {@code autoscaling.x-k8s.io/consume-provisioning-request}
   * (or its deprecated {@code cluster-autoscaler.kubernetes.io/} spelling), if annotated.
   */
  public static Optional<String> consumedRequest(Pod p) {
    if (p.getMetadata() == null || p.getMetadata().getAnnotations() == null) {
      return Optional.empty();
    }
    String name = p.getMetadata().getAnnotations().get(ProvisioningRequest.CONSUME_ANNOTATION);
    if (name == null) {
      name = p.getMetadata().getAnnotations().get(ProvisioningRequest.DEPRECATED_CONSUME_ANNOTATION);
    }
    if (name == null) {
      return Optional.empty();
    }
    String ns = p.getMetadata().getNamespace() == null ? "default" : p.getMetadata().getNamespace();
    return Optional.of(ns + "/" + name);
  }

  /** {@code namespace/name} of a request. */
  public static String key(ProvisioningRequest pr) {
    return namespace(pr) + "/" + pr.getMetadata().getName();
  }

  static String namespace(ProvisioningRequest pr) {
    String ns = pr.getMetadata() == null ? null : pr.getMetadata().getNamespace();
    return ns == null || ns.isEmpty() ? "default" : ns;
  }

  static List<PodSet> podSets(ProvisioningRequest pr) {
    return pr.getSpec() == null || pr.getSpec().getPodSets() == null ? List.of() : pr.getSpec().getPodSets();
  }

  private static OwnerReference owner(ProvisioningRequest pr) {
    OwnerReference o = new OwnerReference();
    o.setApiVersion(pr.getApiVersion());
    o.setKind(pr.getKind());
    o.setName(pr.getMetadata().getName());
    o.setUid(pr.getMetadata().getUid());
    o.setController(true);
    return o;
  }
}
