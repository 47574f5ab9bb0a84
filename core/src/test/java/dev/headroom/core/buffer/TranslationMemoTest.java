package dev.headroom.core.buffer;

import dev.headroom.api.Models;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.EnvVarBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentBuilder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Seeded equivalence of the memoised reconcile (one long-lived {@link BufferReconciler}, whose
 * {@link TranslationMemo} reuses managed templates and quota chunks across reconciles) and the plain one (a fresh
 * reconciler every time), over a namespace that changes at random between reconciles: pods come, go and change
 * (with and without resourceVersions, content changes that are and are not semantic), Deployments scale, managed
 * templates are edited or replaced behind the controller's back, buffers change, quotas come and go.
 */
class TranslationMemoTest {

  private static final String NS = "default";
  private static final Instant START = Instant.parse("2026-03-02T10:00:00Z");
  private static final String[] CPUS = {"1", "1000m", "500m", "2"};

  /** Seeds from 17 on read pods through content tokens shared by pods of equal content, as the simulator's view does. */
  static LongStream seeds() {
    return LongStream.range(1, 33);
  }

  /** The shared state of the namespace; each side reads it through its own view. */
  private static final class World {
    final List<Pod> pods = new ArrayList<>();
    final Map<String, Deployment> deployments = new LinkedHashMap<>();
    final List<ResourceQuota> quotas = new ArrayList<>();
    final List<PodTemplate> sources = new ArrayList<>();
    long uids;
  }

  /** One side: its view (with its stored buffers), its template store and the reconciler it uses. */
  private static final class Side implements BufferClusterView {
    final World world;
    final Map<String, CapacityBuffer> buffers = new LinkedHashMap<>();
    final InMemoryTemplateStore store = new InMemoryTemplateStore(InMemoryTemplateStore.Generations.API_SERVER);
    final CountingStore counting = new CountingStore(store);
    final boolean memoised;
    final boolean contentTokens;
    BufferReconciler reconciler = new BufferReconciler(BufferSettings.defaults());

    Side(World world, boolean memoised, boolean contentTokens) {
      this.world = world;
      this.memoised = memoised;
      this.contentTokens = contentTokens;
    }

    /** With content tokens, one token for every pod whose extracted template (without nodeName) is equal. */
    @Override
    public String podTemplateVersion(Pod pod) {
      if (!contentTokens) {
        return BufferClusterView.super.podTemplateVersion(pod);
      }
      var extracted = ManagedTemplates.extract(pod);
      if (extracted.getSpec() != null) {
        extracted.getSpec().setNodeName(null);
      }
      return "content:" + ManagedTemplates.canonical(extracted);
    }

    NamespaceResult reconcile(Instant now) {
      if (!memoised) {
        reconciler = new BufferReconciler(BufferSettings.defaults());
      }
      NamespaceResult result = reconciler.reconcileNamespace(NS, this, counting, new DefaultingPodResolver(), now);
      for (BufferOutcome o : result.changed()) {
        CapacityBuffer stored = buffers.get(o.buffer().getMetadata().getName());
        if (stored != null) {
          stored.setStatus(Models.copy(o.buffer().getStatus()));
        }
      }
      return result;
    }

    @Override
    public List<CapacityBuffer> buffers(String namespace) {
      return buffers.values().stream().map(Models::copy).toList();
    }

    @Override
    public Optional<PodTemplate> podTemplate(String namespace, String name) {
      return world.sources.stream().filter(t -> t.getMetadata().getName().equals(name)).findFirst().map(Models::copy);
    }

    @Override
    public Optional<HasMetadata> workload(String namespace, WorkloadKind kind, String name) {
      Deployment d = kind == WorkloadKind.DEPLOYMENT ? world.deployments.get(name) : null;
      return Optional.ofNullable(Models.copy(d));
    }

    @Override
    public ScaleView scale(String namespace, String apiGroup, String kind, String name) throws ClusterApiException {
      Deployment d = world.deployments.get(name);
      if (d == null) {
        throw new ClusterApiException(WorkloadKind.DEPLOYMENT.notFound(name));
      }
      return WorkloadKind.DEPLOYMENT.scaleOf(d).orElseThrow();
    }

    @Override
    public List<Pod> pods(String namespace, SelectorExpression selector) {
      return world.pods.stream().filter(p -> selector.matches(p.getMetadata().getLabels())).map(Models::copy).toList();
    }

    @Override
    public List<ResourceQuota> resourceQuotas(String namespace) {
      return world.quotas.stream().map(Models::copy).toList();
    }
  }

  /** Counts full reads, to show that the memoised side skips some. */
  private static final class CountingStore implements ManagedTemplateStore {
    final InMemoryTemplateStore d;
    int gets;

    CountingStore(InMemoryTemplateStore d) {
      this.d = d;
    }

    @Override
    public Optional<PodTemplate> get(String namespace, String name) {
      gets++;
      return d.get(namespace, name);
    }

    @Override
    public Optional<String> resourceVersion(String namespace, String name) {
      return d.resourceVersion(namespace, name);
    }

    @Override
    public PodTemplate create(PodTemplate template) throws ClusterApiException {
      return d.create(template);
    }

    @Override
    public PodTemplate update(PodTemplate template) throws ClusterApiException {
      return d.update(template);
    }
  }

  @ParameterizedTest
  @MethodSource("seeds")
  void memoisedReconcilesEqualFreshOnes(long seed) throws Exception {
    Random r = new Random(seed);
    World world = new World();
    Side memo = new Side(world, true, seed > 16);
    Side plain = new Side(world, false, seed > 16);
    for (int i = 0; i < 3; i++) {
      world.deployments.put("d" + i, deployment("d" + i, 2 + r.nextInt(20), spec(r)));
    }
    world.sources.add(source("src", spec(r)));
    for (int i = 0; i < 4; i++) {
      addBuffer(memo, plain, r, "b" + i);
    }
    for (int i = 0; i < 8; i++) {
      addPod(world, r, START);
    }
    Instant now = START;
    for (int round = 0; round < 30; round++) {
      now = now.plusSeconds(r.nextInt(3) == 0 ? 0 : 30);
      int changes = r.nextInt(4);
      for (int c = 0; c < changes; c++) {
        change(world, memo, plain, r, now);
      }
      NamespaceResult a = memo.reconcile(now);
      NamespaceResult b = plain.reconcile(now);
      assertThat(a.errors()).as("errors, round %d", round).isEqualTo(b.errors());
      assertThat(a.nextBoundary()).isEqualTo(b.nextBoundary());
      assertThat(summary(a)).as("outcomes, round %d", round).isEqualTo(summary(b));
      assertThat(trees(memo.buffers.values())).as("statuses, round %d", round).isEqualTo(trees(plain.buffers.values()));
      assertThat(trees(memo.store.all())).as("templates, round %d", round).isEqualTo(trees(plain.store.all()));
      assertThat(memo.store.creates()).isEqualTo(plain.store.creates());
      assertThat(memo.store.updates()).isEqualTo(plain.store.updates());
    }
    assertThat(memo.counting.gets).as("the memo skipped reads").isLessThan(plain.counting.gets);
  }

  private static void change(World world, Side memo, Side plain, Random r, Instant now) throws Exception {
    switch (r.nextInt(11)) {
      case 0, 1 -> addPod(world, r, now);
      case 2 -> {
        if (!world.pods.isEmpty()) {
          world.pods.remove(r.nextInt(world.pods.size()));
        }
      }
      case 3 -> {
        // a write to a pod: a new resourceVersion, sometimes with new content, sometimes binding it
        if (!world.pods.isEmpty()) {
          Pod p = world.pods.get(r.nextInt(world.pods.size()));
          int what = r.nextInt(3);
          if (what == 0) {
            p.setSpec(spec(r));
          } else if (what == 1) {
            p.getSpec().setNodeName("node-" + r.nextInt(3));
          }
          p.getMetadata().setResourceVersion(r.nextInt(5) == 0 ? null : Long.toString(++world.uids));
        }
      }
      case 4 -> {
        Deployment d = world.deployments.get("d" + r.nextInt(3));
        d.getStatus().setReplicas(r.nextInt(30));
      }
      case 5 -> {
        // someone edits or replaces a managed template
        List<PodTemplate> all = memo.store.all();
        if (!all.isEmpty()) {
          PodTemplate t = all.get(r.nextInt(all.size()));
          PodSpec edited = r.nextBoolean() ? spec(r) : t.getTemplate().getSpec();
          boolean put = r.nextInt(3) == 0;
          String version = r.nextBoolean() ? null : "external-" + (++world.uids);
          for (Side s : List.of(memo, plain)) {
            PodTemplate copy = Models.copy(t);
            copy.getTemplate().setSpec(Models.copy(edited));
            if (put) {
              copy.getMetadata().setResourceVersion(version);
              s.store.put(copy);
            } else {
              s.store.update(copy);
            }
          }
        }
      }
      case 6 -> {
        String name = "b" + r.nextInt(5);
        if (memo.buffers.containsKey(name) && r.nextBoolean()) {
          memo.buffers.remove(name);
          plain.buffers.remove(name);
        } else {
          addBuffer(memo, plain, r, name);
        }
      }
      case 7 -> {
        world.quotas.clear();
        if (r.nextBoolean()) {
          world.quotas.add(Fixtures.quota("q", "cpu=" + (1 + r.nextInt(40)) + ",pods=" + (5 + r.nextInt(60)), "cpu=" + r.nextInt(5)));
        }
      }
      case 8 -> {
        String name = "b" + r.nextInt(5);
        if (memo.buffers.containsKey(name)) {
          int pct = r.nextInt(50);
          memo.buffers.get(name).getSpec().setPercentage(pct);
          plain.buffers.get(name).getSpec().setPercentage(pct);
        }
      }
      case 9 -> world.sources.set(0, source("src", spec(r)));
      default -> {
        // a pod keeps its uid and content but gets a new resourceVersion
        if (!world.pods.isEmpty()) {
          world.pods.get(r.nextInt(world.pods.size())).getMetadata().setResourceVersion(Long.toString(++world.uids));
        }
      }
    }
  }

  private static void addBuffer(Side memo, Side plain, Random r, String name) {
    CapacityBuffer b = Fixtures.buffer(name);
    b.getMetadata().setUid("uid-" + name + "-" + r.nextInt(3));
    b.getMetadata().setCreationTimestamp(START.plusSeconds(r.nextInt(3)).toString());
    int kind = r.nextInt(6);
    if (kind == 0) {
      b.getSpec().setPodTemplateRef(new LocalObjectRef("src"));
      b.getSpec().setReplicas(r.nextInt(5));
    } else {
      // d3 does not exist
      b.getSpec().setScalableRef(new ScalableRef("apps", "Deployment", "d" + r.nextInt(4)));
      b.getSpec().setPercentage(r.nextInt(50));
    }
    memo.buffers.put(name, b);
    plain.buffers.put(name, Models.copy(b));
  }

  private static void addPod(World world, Random r, Instant now) {
    long n = ++world.uids;
    String app = "d" + r.nextInt(3);
    Pod p = new PodBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(app + "-" + (char) ('a' + r.nextInt(4))).withNamespace(NS)
            .withUid(r.nextInt(8) == 0 ? null : "pod-" + n).withResourceVersion(r.nextInt(6) == 0 ? "" : Long.toString(n))
            .withCreationTimestamp(now.minusSeconds(r.nextInt(2) * 30L).toString()).withLabels(Map.of("app", app)).build())
        .withSpec(spec(r))
        .build();
    world.pods.add(p);
  }

  private static PodSpec spec(Random r) {
    ContainerBuilder c = new ContainerBuilder().withName("c").withImage("img:" + r.nextInt(2))
        .withNewResources().addToRequests("cpu", new Quantity(CPUS[r.nextInt(CPUS.length)])).endResources();
    if (r.nextInt(4) == 0) {
      // a quantity that semantic equality compares as text
      c.withEnv(new EnvVarBuilder().withName("CPU").withNewValueFrom().withNewResourceFieldRef().withResource("requests.cpu")
          .withDivisor(new Quantity(r.nextBoolean() ? "1" : "1000m")).endResourceFieldRef().endValueFrom().build());
    }
    return new PodSpecBuilder().withContainers(c.build()).build();
  }

  private static Deployment deployment(String name, int replicas, PodSpec spec) {
    return new DeploymentBuilder().withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withGeneration(1L).build())
        .withNewSpec().withReplicas(replicas).withNewSelector().withMatchLabels(Map.of("app", name)).endSelector()
        .withNewTemplate().withNewMetadata().withLabels(Map.of("app", name)).endMetadata().withSpec(spec).endTemplate().endSpec()
        .withNewStatus().withReplicas(replicas).endStatus()
        .build();
  }

  private static PodTemplate source(String name, PodSpec spec) {
    return Fixtures.template(name, 1, spec);
  }

  private static List<String> summary(NamespaceResult result) {
    return result.buffers().stream().map(o -> o.key() + " " + o.processed() + " " + o.changed()).toList();
  }

  private static List<Map<String, Object>> trees(Iterable<? extends Object> objects) {
    List<Map<String, Object>> out = new ArrayList<>();
    objects.forEach(o -> out.add(Models.tree(o)));
    return out;
  }
}
