package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.container;
import static dev.headroom.core.buffer.Fixtures.quota;
import static dev.headroom.core.buffer.Fixtures.spec;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ScopeSelectorBuilder;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.11 (quota allocator), §9.19 (two buffers share a quota) and the pod-count rows of §9.20. */
class QuotaAllocatorTest {

  static final Instant NOW = Instant.parse("2026-03-02T10:00:00Z");

  /** A template; limits are copied into missing requests first, mimicking a dry run (§9.11 setup). */
  static PodTemplate t(String name, PodSpec spec) {
    PodTemplate raw = Fixtures.template(name, 0, spec);
    raw.setTemplate(ManagedTemplates.extract(new DefaultingPodResolver().resolve("default", raw.getTemplate())));
    return raw;
  }

  static PodTemplate t(String name, String requests) {
    return t(name, spec(container("c", requests, null)));
  }

  static PodTemplate withClass(String name, String priorityClass) {
    PodSpec s = spec(container("c", "cpu=1", null));
    s.setPriorityClassName(priorityClass);
    return t(name, s);
  }

  static PodTemplate withAffinity(String name, boolean anti) {
    PodSpec s = spec(container("c", "cpu=1", null));
    var term = new PodAffinityTermBuilder().withTopologyKey("kubernetes.io/hostname").withNamespaces("other-ns").build();
    s.setAffinity(anti
        ? new AffinityBuilder().withNewPodAntiAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAntiAffinity().build()
        : new AffinityBuilder().withNewPodAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAffinity().build());
    return t(name, s);
  }

  static ResourceQuota rqBase() {
    return quota("quota", "cpu=10,memory=10Gi", "cpu=0,memory=0");
  }

  static ResourceQuota priorityQuota() {
    ResourceQuota q = quota("quota-priority", "cpu=2", "cpu=0");
    q.getSpec().setScopeSelector(new ScopeSelectorBuilder().withMatchExpressions(new ScopedResourceSelectorRequirement("In", "PriorityClass", List.of("high-priority"))).build());
    return q;
  }

  /** (template, replicas) pairs in order. */
  static List<Object[]> bufs(Object... pairs) {
    List<Object[]> out = new ArrayList<>();
    for (int i = 0; i < pairs.length; i += 2) {
      out.add(new Object[] {pairs[i], pairs[i + 1]});
    }
    return out;
  }

  static Stream<Arguments> v9_11() {
    return Stream.of(
        Arguments.of("9.11 no quotas", List.of(t("podTemp", "cpu=1,memory=1Gi")), List.of(), bufs("podTemp", 5), List.of(5), Arrays.asList((String) null)),
        Arguments.of("9.11 single buffer fits within quota", List.of(t("podTemp", "cpu=1,memory=1Gi")), List.of(rqBase()), bufs("podTemp", 5), List.of(5), Arrays.asList((String) null)),
        Arguments.of("9.11 multiple buffers, second limited by quota", List.of(t("podTemp", "cpu=1,memory=1Gi")), List.of(rqBase()),
            bufs("podTemp", 5, "podTemp", 10), List.of(5, 5), Arrays.asList(null, "quota")),
        Arguments.of("9.11 buffer limited by existing usage", List.of(t("podTemp", "cpu=1,memory=1Gi")), List.of(quota("quota-usage", "cpu=10", "cpu=8")),
            bufs("podTemp", 5), List.of(2), List.of("quota-usage")),
        Arguments.of("9.11 multiple quotas on the same resource, both limit", List.of(t("podTemp", "cpu=1,memory=1Gi")),
            List.of(quota("q1", "cpu=5", "cpu=4"), quota("q2", "cpu=10", "cpu=8")), bufs("podTemp", 5), List.of(1), List.of("q1,q2")),
        Arguments.of("9.11 requests prefixes are handled", List.of(t("podTemp", "cpu=1,memory=1Gi")), List.of(quota("quota-requests", "requests.cpu=10", "requests.cpu=8")),
            bufs("podTemp", 5), List.of(2), List.of("quota-requests")),
        Arguments.of("9.11 pod defaulting works: limits imply requests", List.of(t("pod-with-limits", spec(container("c", null, "cpu=1")))),
            List.of(quota("quota-reqs", "requests.cpu=2", "requests.cpu=0")), bufs("pod-with-limits", 5), List.of(2), List.of("quota-reqs")),
        Arguments.of("9.11 quota scopes: terminating scope ignored", List.of(t("buffer-pod", "cpu=1")), List.of(quota("quota-terminating", "cpu=2", null, "Terminating")),
            bufs("buffer-pod", 5), List.of(5), Arrays.asList((String) null)),
        Arguments.of("9.11 quota scopes: not terminating scope applies", List.of(t("pod", "cpu=1")), List.of(quota("quota-not-terminating", "cpu=2", null, "NotTerminating")),
            bufs("pod", 5), List.of(2), List.of("quota-not-terminating")),
        Arguments.of("9.11 best effort scope applies to best effort pod", List.of(t("best-effort-pod", "nvidia.com/gpu=1")),
            List.of(quota("quota-best-effort", "requests.nvidia.com/gpu=2", null, "BestEffort")), bufs("best-effort-pod", 5), List.of(2), List.of("quota-best-effort")),
        Arguments.of("9.11 best effort scope ignored for non-best effort pod", List.of(t("burstable-pod", "cpu=1")),
            List.of(quota("quota-best-effort", "cpu=2", null, "BestEffort")), bufs("burstable-pod", 5), List.of(5), Arrays.asList((String) null)),
        Arguments.of("9.11 priority class scope applies", List.of(withClass("priority-pod", "high-priority"), t("regular-pod", "cpu=1")), List.of(priorityQuota()),
            bufs("regular-pod", 5, "priority-pod", 5), List.of(5, 2), Arrays.asList(null, "quota-priority")),
        Arguments.of("9.11 multiple quotas: limited by different quotas", List.of(t("pod-a", "cpu=1"), t("pod-b", "memory=1Gi")),
            List.of(quota("quota-cpu", "cpu=2", null), quota("quota-mem", "memory=2Gi", null)), bufs("pod-a", 5, "pod-b", 5), List.of(2, 2), List.of("quota-cpu", "quota-mem")),
        Arguments.of("9.11 cross-namespace pod affinity scope applies",
            List.of(withAffinity("affinity-pod", false), withAffinity("anti-affinity-pod", true), t("regular-pod", "cpu=1")),
            List.of(quota("quota-cross-ns", "cpu=2", null, "CrossNamespacePodAffinity")),
            bufs("affinity-pod", 5, "anti-affinity-pod", 2, "regular-pod", 5), List.of(2, 0, 5), Arrays.asList("quota-cross-ns", "quota-cross-ns", null)),
        Arguments.of("9.19 two buffers, quota allows 3 chunks, each wants 2", List.of(t("pod", "cpu=1")), List.of(quota("q", "cpu=3", "cpu=0")),
            bufs("pod", 2, "pod", 2), List.of(2, 1), Arrays.asList(null, "q")));
  }

  static List<CapacityBuffer> run(List<PodTemplate> templates, List<ResourceQuota> quotas, List<Object[]> specs, boolean countPods) {
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT);
    templates.forEach(store::put);
    List<CapacityBuffer> buffers = new ArrayList<>();
    for (int i = 0; i < specs.size(); i++) {
      CapacityBuffer b = Fixtures.buffer("b" + i);
      b.setStatus(new CapacityBufferStatus());
      b.getStatus().setPodTemplateRef(new LocalObjectRef((String) specs.get(i)[0]));
      b.getStatus().setPodTemplateGeneration(0L);
      b.getStatus().setReplicas((Integer) specs.get(i)[1]);
      buffers.add(b);
    }
    List<String> errors = new QuotaAllocator(countPods).allocate(buffers, quotas, store, NOW);
    assertThat(errors).isEmpty();
    return buffers;
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("v9_11")
  void quotaAllocator(String name, List<PodTemplate> templates, List<ResourceQuota> quotas, List<Object[]> specs, List<Integer> want, List<String> blocking) {
    for (boolean countPods : new boolean[] {true, false}) {
      List<CapacityBuffer> buffers = run(templates, quotas, specs, countPods);
      for (int i = 0; i < buffers.size(); i++) {
        CapacityBufferStatus s = buffers.get(i).getStatus();
        assertThat(s.getReplicas()).as("replicas of buffer %d (countPods %s)", i, countPods).isEqualTo(want.get(i));
        var limited = StatusConditions.find(s.getConditions(), "LimitedByQuotas");
        if (blocking.get(i) == null) {
          limited.ifPresent(c -> assertThat(c.getStatus()).isEqualTo("False"));
        } else {
          assertThat(limited).isPresent();
          assertThat(limited.get().getStatus()).isEqualTo("True");
          assertThat(limited.get().getReason()).isEqualTo("ResourceQuotasAllocated");
          for (String q : blocking.get(i).split(",")) {
            assertThat(limited.get().getMessage()).contains(q);
          }
        }
      }
    }
  }

  static Stream<Arguments> podCount() {
    return Stream.of(
        Arguments.of("9.20 pods 3 / used 1", "cpu=1", List.of(quota("pq", "pods=3", "pods=1")), List.of(5), List.of(2), List.of(5),
            Arrays.asList("Buffer replicas limited from 5 to 2 due to quotas: pq"), Arrays.asList((String) null)),
        Arguments.of("9.20 count/pods 4", "cpu=1", List.of(quota("pq", "count/pods=4", null)), List.of(5, 5), List.of(4, 0), List.of(5, 5),
            Arrays.asList("Buffer replicas limited from 5 to 4 due to quotas: pq", "Buffer replicas limited from 5 to 0 due to quotas: pq"), Arrays.asList(null, null)),
        Arguments.of("9.20 pods 10, cpu 2", "cpu=1", List.of(quota("pq", "pods=10,cpu=2", null)), List.of(5), List.of(2), List.of(2),
            Arrays.asList("Buffer replicas limited from 5 to 2 due to quotas: pq"), Arrays.asList("Buffer replicas limited from 5 to 2 due to quotas: pq")),
        Arguments.of("9.20 template with no requests; pods 2", null, List.of(quota("pq", "pods=2", null)), List.of(5), List.of(2), List.of(5),
            Arrays.asList("Buffer replicas limited from 5 to 2 due to quotas: pq"), Arrays.asList("<none>")));
  }

  /** Expected messages: null = LimitedByQuotas False; "<none>" = no LimitedByQuotas condition at all. */
  @ParameterizedTest(name = "{0}")
  @MethodSource("podCount")
  void podCountQuotas(String name, String requests, List<ResourceQuota> quotas, List<Integer> replicas, List<Integer> on, List<Integer> off,
      List<String> onMessages, List<String> offMessages) {
    PodTemplate template = requests == null ? t("pod", spec(container("c", null, null))) : t("pod", requests);
    Object[] pairs = new Object[replicas.size() * 2];
    for (int i = 0; i < replicas.size(); i++) {
      pairs[2 * i] = "pod";
      pairs[2 * i + 1] = replicas.get(i);
    }
    check(run(List.of(template), quotas, bufs(pairs), true), on, onMessages);
    check(run(List.of(template), quotas, bufs(pairs), false), off, offMessages);
  }

  private static void check(List<CapacityBuffer> buffers, List<Integer> want, List<String> messages) {
    for (int i = 0; i < buffers.size(); i++) {
      assertThat(buffers.get(i).getStatus().getReplicas()).isEqualTo(want.get(i));
      Optional<io.fabric8.kubernetes.api.model.Condition> c = StatusConditions.find(buffers.get(i).getStatus().getConditions(), "LimitedByQuotas");
      if ("<none>".equals(messages.get(i))) {
        assertThat(c).isEmpty();
      } else if (messages.get(i) == null) {
        assertThat(c).hasValueSatisfying(x -> assertThat(x.getStatus()).isEqualTo("False"));
      } else {
        String m = messages.get(i);
        assertThat(c).hasValueSatisfying(x -> assertThat(x.getMessage()).isEqualTo(m));
      }
    }
  }

  @Test
  void buffersWithoutCompleteStatusOrTemplateAreSkipped() {
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT);
    CapacityBuffer noReplicas = Fixtures.buffer("a");
    noReplicas.setStatus(new CapacityBufferStatus());
    noReplicas.getStatus().setPodTemplateRef(new LocalObjectRef("pod"));
    noReplicas.getStatus().setPodTemplateGeneration(0L);
    CapacityBuffer missingTemplate = Fixtures.buffer("b");
    missingTemplate.setStatus(new CapacityBufferStatus());
    missingTemplate.getStatus().setPodTemplateRef(new LocalObjectRef("missing"));
    missingTemplate.getStatus().setPodTemplateGeneration(0L);
    missingTemplate.getStatus().setReplicas(3);
    new QuotaAllocator(true).allocate(List.of(noReplicas, missingTemplate), List.of(quota("q", "pods=1", null)), store, NOW);
    assertThat(noReplicas.getStatus().getConditions()).isEmpty();
    assertThat(missingTemplate.getStatus().getConditions()).isEmpty();
    assertThat(missingTemplate.getStatus().getReplicas()).isEqualTo(3);
  }

  @Test
  void scopeErrorsAreReportedAndTheQuotaIsSkipped() {
    InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.FAKE_CLIENT);
    store.put(t("pod", "cpu=1"));
    ResourceQuota bad = quota("bad", "cpu=1", null);
    bad.getSpec().setScopeSelector(new ScopeSelectorBuilder().withMatchExpressions(new ScopedResourceSelectorRequirement("invalid", "PriorityClass", List.of("foo"))).build());
    CapacityBuffer b = Fixtures.buffer("a");
    b.setStatus(new CapacityBufferStatus());
    b.getStatus().setPodTemplateRef(new LocalObjectRef("pod"));
    b.getStatus().setPodTemplateGeneration(0L);
    b.getStatus().setReplicas(3);
    List<String> errors = new QuotaAllocator(true).allocate(List.of(b), List.of(bad), store, NOW);
    assertThat(errors).containsExactly("resourceQuotaAllocator: failed to check if pod matches quota \"bad\", error: \"invalid\" is not a valid scope selector operator");
    assertThat(b.getStatus().getReplicas()).isEqualTo(3);
  }

  @Test
  void overusedQuotaAllowsNothing() {
    List<CapacityBuffer> buffers = run(List.of(t("pod", "cpu=1")), List.of(quota("q", "cpu=2", "cpu=3")), bufs("pod", 4), true);
    assertThat(buffers.get(0).getStatus().getReplicas()).isZero();
  }
}
