package dev.headroom.core.buffer;

import static dev.headroom.core.buffer.Fixtures.notReady;
import static dev.headroom.core.buffer.Fixtures.quota;
import static dev.headroom.core.buffer.Fixtures.ready;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.HasMetadata;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The namespace reconcile (§6.3) with §9.18-like scenarios, §9.19 strategy rows and §9.20 fixes. */
class BufferReconcilerTest {

  static final Instant NOW = Instant.parse("2026-03-02T08:30:00Z");
  static final String ACTIVE = Fixtures.ACTIVE;

  final InMemoryClusterView view = new InMemoryClusterView();
  final InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
  final BufferReconciler reconciler = new BufferReconciler(BufferSettings.defaults());

  NamespaceResult reconcile(Instant now) {
    return reconciler.reconcileNamespace("default", view, store, new DefaultingPodResolver(), now);
  }

  static CapacityBuffer buffer(String name, String created, Integer replicas) {
    CapacityBuffer b = Fixtures.templateBuffer(name, "pod-temp", replicas, null);
    b.getMetadata().setCreationTimestamp(created);
    b.getSpec().setProvisioningStrategy(ACTIVE);
    return b;
  }

  static BufferOutcome outcome(NamespaceResult r, String name) {
    return r.buffers().stream().filter(o -> o.buffer().getMetadata().getName().equals(name)).findFirst().orElseThrow();
  }

  @Test
  void strategyFooIsLeftUntouchedAndEmptyStrategyIsProcessed() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    CapacityBuffer foo = buffer("foo", null, 1);
    foo.getSpec().setProvisioningStrategy("foo");
    CapacityBuffer empty = buffer("empty", null, 1);
    empty.getSpec().setProvisioningStrategy("");
    view.add(foo).add(empty);

    NamespaceResult r = reconcile(NOW);

    assertThat(outcome(r, "foo").processed()).isFalse();
    assertThat(outcome(r, "foo").changed()).isFalse();
    assertThat(outcome(r, "foo").buffer().getStatus()).isNull();
    assertThat(outcome(r, "empty").processed()).isTrue();
    assertThat(outcome(r, "empty").buffer().getStatus().getProvisioningStrategy()).isEqualTo(ACTIVE);
    assertThat(r.errors()).isEmpty();
  }

  @Test
  void theStandbyStrategyIsProcessedOnlyWhenEnabled() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    CapacityBuffer standby = buffer("standby", null, 3);
    standby.getSpec().setProvisioningStrategy(BufferConditions.STRATEGY_STANDBY_CAPACITY);
    view.add(standby);

    NamespaceResult off = reconcile(NOW);
    assertThat(outcome(off, "standby").processed()).isFalse();
    assertThat(outcome(off, "standby").buffer().getStatus()).isNull();
    assertThat(BufferFilters.strategyAllowed(standby)).isFalse();

    NamespaceResult on = new BufferReconciler(BufferSettings.defaults().withStandbyCapacity(true))
        .reconcileNamespace("default", view, store, new DefaultingPodResolver(), NOW);
    BufferOutcome o = outcome(on, "standby");
    assertThat(o.processed()).isTrue();
    assertThat(o.buffer().getStatus().getProvisioningStrategy()).isEqualTo(BufferConditions.STRATEGY_STANDBY_CAPACITY);
    assertThat(o.buffer().getStatus().getReplicas()).isEqualTo(3);
    assertThat(StatusConditions.isStatus(o.buffer().getStatus().getConditions(), BufferConditions.READY_FOR_PROVISIONING,
        BufferConditions.TRUE)).isTrue();
  }

  @Test
  void v9_20_bufferWithNeitherRef() {
    CapacityBuffer b = Fixtures.buffer("none");
    b.getSpec().setProvisioningStrategy(ACTIVE);
    b.getSpec().setReplicas(3);
    view.add(b);
    NamespaceResult r = reconcile(NOW);
    ExpectedStatus.of(null, null, null, ACTIVE, notReady("Buffer not ready for provisioning: neither podTemplateRef nor scalableRef is set"))
        .assertMatches(outcome(r, "none").buffer());
    assertThat(r.errors()).isEmpty();
  }

  @Test
  void v9_20_twoReconcilesWithNoChangeWriteOnce() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    CapacityBuffer b = buffer("b", "2026-03-01T00:00:00Z", 2);
    b.getMetadata().setGeneration(4L);
    view.add(b);
    NamespaceResult first = reconcile(NOW);
    assertThat(first.changed()).hasSize(1);
    CapacityBuffer written = first.changed().get(0).buffer();
    assertThat(written.getStatus().getPodTemplateGeneration()).isEqualTo(1L);
    assertThat(written.getStatus().getConditions()).allSatisfy(c -> assertThat(c.getObservedGeneration()).isEqualTo(4L));

    InMemoryClusterView second = new InMemoryClusterView();
    second.add(Fixtures.template("pod-temp", "cpu=1"));
    second.add(written);
    NamespaceResult again = reconciler.reconcileNamespace("default", second, store, new DefaultingPodResolver(), NOW.plusSeconds(300));
    assertThat(again.changed()).isEmpty();
    assertThat(store.creates()).isEqualTo(1);
    assertThat(store.updates()).isZero();
    assertThat(again.buffers().get(0).buffer().getStatus().getConditions().get(0).getLastTransitionTime()).isEqualTo("2026-03-02T08:30:00Z");
  }

  @Test
  void quotaScenarioOfSection9_18() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(quota("quota", "cpu=5", "cpu=0"));
    view.add(buffer("b1", "2026-03-01T00:00:00Z", 4));
    view.add(buffer("b2", "2026-03-01T00:00:01Z", 4));
    NamespaceResult r = reconcile(NOW);
    assertThat(outcome(r, "b1").buffer().getStatus().getReplicas()).isEqualTo(4);
    assertThat(outcome(r, "b2").buffer().getStatus().getReplicas()).isEqualTo(1);
    assertThat(StatusConditions.find(outcome(r, "b2").buffer().getStatus().getConditions(), "LimitedByQuotas").orElseThrow().getMessage())
        .isEqualTo("Buffer replicas limited from 4 to 1 due to quotas: quota");
    assertThat(StatusConditions.find(outcome(r, "b1").buffer().getStatus().getConditions(), "LimitedByQuotas").orElseThrow().getStatus()).isEqualTo("False");
    assertThat(r.buffers()).extracting(o -> o.buffer().getMetadata().getName()).containsExactly("b1", "b2");
  }

  @Test
  void buffersAreProcessedInCreationOrderThenName() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(quota("quota", "cpu=3", null));
    view.add(buffer("z-old", "2026-01-01T00:00:00Z", 2));
    view.add(buffer("b-new", "2026-02-01T00:00:00Z", 2));
    view.add(buffer("a-new", "2026-02-01T00:00:00Z", 2));
    NamespaceResult r = reconcile(NOW);
    assertThat(r.buffers()).extracting(o -> o.buffer().getMetadata().getName()).containsExactly("z-old", "a-new", "b-new");
    assertThat(r.buffers()).extracting(o -> o.buffer().getStatus().getReplicas()).containsExactly(2, 1, 0);
  }

  @Test
  void scheduleOverlayZeroesReplicasOutsideTheWindowAndReservesNoQuota() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(quota("quota", "cpu=3", null));
    CapacityBuffer night = buffer("night", "2026-01-01T00:00:00Z", 3);
    night.getMetadata().setAnnotations(Map.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, "Mon-Fri 20:00-22:00 UTC"));
    CapacityBuffer day = buffer("day", "2026-01-02T00:00:00Z", 3);
    day.getMetadata().setAnnotations(Map.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, "Mon-Fri 09:00-18:00 Europe/Berlin"));
    CapacityBuffer broken = buffer("broken", "2026-01-03T00:00:00Z", 3);
    broken.getMetadata().setAnnotations(Map.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, "Mon-Fri 9:00-18:00 UTC"));
    view.add(night).add(day).add(broken);

    NamespaceResult r = reconcile(NOW);

    CapacityBufferStatus n = outcome(r, "night").buffer().getStatus();
    assertThat(n.getReplicas()).isZero();
    assertThat(StatusConditions.find(n.getConditions(), "ReadyForProvisioning").orElseThrow().getStatus()).isEqualTo("True");
    assertThat(Fixtures.withoutTime(n.getConditions())).contains(Fixtures.cond("ScheduleActive", "False", "OutsideSchedule", "Inactive until 2026-03-02T20:00:00Z"));
    CapacityBufferStatus d = outcome(r, "day").buffer().getStatus();
    assertThat(d.getReplicas()).as("the inactive buffer reserved no quota").isEqualTo(3);
    assertThat(Fixtures.withoutTime(d.getConditions())).contains(Fixtures.cond("ScheduleActive", "True", "WithinSchedule", "Active until 2026-03-02T17:00:00Z"));
    CapacityBufferStatus x = outcome(r, "broken").buffer().getStatus();
    assertThat(x.getReplicas()).isZero();
    assertThat(StatusConditions.find(x.getConditions(), "ScheduleActive").orElseThrow().getReason()).isEqualTo("InvalidSchedule");
    assertThat(StatusConditions.find(x.getConditions(), "ScheduleActive").orElseThrow().getMessage()).startsWith("Invalid headroom.dev/active-schedule annotation: ");
    assertThat(r.nextBoundary()).contains(Instant.parse("2026-03-02T17:00:00Z"));
  }

  @Test
  void removingTheAnnotationRemovesTheCondition() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    CapacityBuffer b = buffer("b", null, 1);
    b.setStatus(new CapacityBufferStatus());
    Condition c = Fixtures.cond("ScheduleActive", "True", "WithinSchedule", "Active with no scheduled end");
    c.setLastTransitionTime("2026-01-01T00:00:00Z");
    b.getStatus().getConditions().add(c);
    view.add(b);
    NamespaceResult r = reconcile(NOW);
    assertThat(r.buffers().get(0).buffer().getStatus().getConditions()).extracting(Condition::getType).doesNotContain("ScheduleActive");
  }

  @Test
  void notReadyBufferStaysAsItIsOutsideItsSchedule() {
    CapacityBuffer b = buffer("b", null, 1);
    b.getMetadata().setAnnotations(Map.of(BufferConditions.ANNOTATION_ACTIVE_SCHEDULE, "Sat 10:00-11:00 UTC"));
    view.add(b);
    NamespaceResult r = reconcile(NOW);
    CapacityBufferStatus s = r.buffers().get(0).buffer().getStatus();
    assertThat(s.getReplicas()).isNull();
    assertThat(r.errors()).hasSize(1);
    assertThat(r.errors().get(0)).isEqualTo("default/b: capacity buffer client can't get pod template: podtemplates \"pod-temp\" not found");
  }

  @Test
  void failingQuotaListIsARequeueAndBuffersStayAsTranslated() {
    BufferClusterView failing = new DelegatingView(view) {
      @Override
      public List<ResourceQuota> resourceQuotas(String namespace) throws ClusterApiException {
        throw new ClusterApiException("connection refused");
      }
    };
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(buffer("b", null, 2));
    NamespaceResult r = reconciler.reconcileNamespace("default", failing, store, new DefaultingPodResolver(), NOW);
    assertThat(r.errors()).containsExactly("resourceQuotaAllocator: Failed to list resource quotas, error: connection refused");
    ExpectedStatus.of("capacitybuffer-b-pod-template", 2, 1L, ACTIVE, ready()).assertMatches(r.buffers().get(0).buffer());
  }

  @Test
  void failingBufferListIsARequeue() {
    BufferClusterView failing = new DelegatingView(view) {
      @Override
      public List<CapacityBuffer> buffers(String namespace) throws ClusterApiException {
        throw new ClusterApiException("timeout");
      }
    };
    NamespaceResult r = reconciler.reconcileNamespace("default", failing, store, new DefaultingPodResolver(), NOW);
    assertThat(r.requeue()).isTrue();
    assertThat(r.buffers()).isEmpty();
  }

  @Test
  void managedTemplateFailureIsReported() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(buffer("b", null, 2));
    ManagedTemplateStore broken = new ManagedTemplateStore() {
      @Override
      public Optional<PodTemplate> get(String namespace, String name) {
        return Optional.empty();
      }

      @Override
      public PodTemplate create(PodTemplate template) throws ClusterApiException {
        throw new ClusterApiException("podtemplates is forbidden");
      }

      @Override
      public PodTemplate update(PodTemplate template) throws ClusterApiException {
        throw new ClusterApiException("podtemplates is forbidden");
      }
    };
    NamespaceResult r = reconciler.reconcileNamespace("default", view, broken, new DefaultingPodResolver(), NOW);
    ExpectedStatus.of(null, null, null, ACTIVE, notReady("Buffer not ready for provisioning: failed to create or update managed pod template: podtemplates is forbidden"))
        .assertMatches(r.buffers().get(0).buffer());
    assertThat(r.requeue()).isTrue();
  }

  @Test
  void failingResolverIsReported() {
    view.add(Fixtures.template("pod-temp", "cpu=1"));
    view.add(buffer("b", null, 2));
    PodResolver rejecting = (ns, t) -> {
      throw new PodResolver.PodResolutionException("admission webhook \"x\" denied the request");
    };
    NamespaceResult r = reconciler.reconcileNamespace("default", view, store, rejecting, NOW);
    ExpectedStatus.of(null, null, null, ACTIVE, notReady("Buffer not ready for provisioning: failed to create fake pod: admission webhook \"x\" denied the request"))
        .assertMatches(r.buffers().get(0).buffer());
  }

  /** Forwards everything to another view. */
  static class DelegatingView implements BufferClusterView {
    private final BufferClusterView d;

    DelegatingView(BufferClusterView d) {
      this.d = d;
    }

    @Override
    public List<CapacityBuffer> buffers(String namespace) throws ClusterApiException {
      return d.buffers(namespace);
    }

    @Override
    public Optional<PodTemplate> podTemplate(String namespace, String name) throws ClusterApiException {
      return d.podTemplate(namespace, name);
    }

    @Override
    public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) throws ClusterApiException {
      return d.workload(namespace, kind, name);
    }

    @Override
    public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
      return d.scale(namespace, apiGroup, kind, name);
    }

    @Override
    public List<Pod> pods(String namespace, SelectorExpression selector) throws ClusterApiException {
      return d.pods(namespace, selector);
    }

    @Override
    public List<ResourceQuota> resourceQuotas(String namespace) throws ClusterApiException {
      return d.resourceQuotas(namespace);
    }
  }
}
