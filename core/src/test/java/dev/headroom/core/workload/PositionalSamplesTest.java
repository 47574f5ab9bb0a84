package dev.headroom.core.workload;

import static dev.headroom.core.workload.HpaFixtures.NOW;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.core.resources.Quantities;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * A positional uniform reading ({@link MetricReading.PodSamples#uniform(List, BitSet, PodSample)}) is the same
 * reading as a map with an entry per covered pod name: on random pod lists (pending, failed, terminating,
 * not-ready, warming and settled pods, pods without a Ready condition or start time, repeated names, mixed,
 * missing, pod-level and container requests), random coverage, samples and targets, and a run of decisions over
 * the same list at moving times, the calculator proposes exactly what it proposes for the explicit map, which
 * takes the by-name reference path.
 */
class PositionalSamplesTest {

  private static final List<ContainerRequests> SHARED =
      List.of(new ContainerRequests("app", Map.of("cpu", 1000L, "memory", 2_000_000L)));
  private static final List<ContainerRequests> SHARED_CPU = List.of(new ContainerRequests("main", Map.of("cpu", 1000L)));

  static LongStream seeds() {
    return LongStream.rangeClosed(1, 400);
  }

  @ParameterizedTest(name = "seed {0}")
  @MethodSource("seeds")
  void proposesWhatTheExplicitMapProposes(long seed) {
    Random r = new Random(seed);
    boolean defaults = r.nextBoolean();
    Duration period = defaults ? HpaReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD
        : Duration.ofSeconds(30 + r.nextInt(600));
    Duration delay = defaults ? HpaReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY : Duration.ofSeconds(r.nextInt(90));
    HpaReplicaCalculator fast = new HpaReplicaCalculator(period, delay);
    HpaReplicaCalculator reference = new HpaReplicaCalculator(period, delay);
    List<PodInfo> pods = List.copyOf(randomPods(r, period));
    boolean applicable = ListedPodFacts.uniqueNames(pods) && uniformRequests(pods);
    int fastTaken = 0;
    int decisions = 1 + r.nextInt(6);
    Instant now = NOW;
    for (int d = 0; d < decisions; d++) {
      BitSet covered = new BitSet();
      int coverage = r.nextInt(4);
      for (int i = 0; i < pods.size(); i++) {
        if (coverage == 0 || r.nextInt(coverage + 1) != 0) {
          covered.set(i);
        }
      }
      HpaMetric metric = randomMetric(r);
      PodSample sample = randomSample(r, now, atTarget(pods, metric));
      Tolerance tol = r.nextInt(3) == 0 ? new Tolerance(r.nextInt(30) / 100.0, r.nextInt(30) / 100.0) : Tolerance.DEFAULT;
      int current = r.nextInt(2 * pods.size() + 2);
      MetricReading.PodSamples positional = MetricReading.PodSamples.uniform(pods, covered, sample);
      Map<String, PodSample> explicit = new LinkedHashMap<>();
      for (int i = 0; i < pods.size(); i++) {
        if (covered.get(i)) {
          explicit.put(pods.get(i).name(), sample);
        }
      }
      assertThat(positional.samples()).isEqualTo(explicit);
      Object a = propose(fast, now, metric, current, pods, positional, tol);
      Object b = propose(reference, now, metric, current, pods, new MetricReading.PodSamples(explicit), tol);
      assertThat(a).as("decision %d at %s of %s", d, now, metric).isEqualTo(b);
      if (!pods.isEmpty() && applicable && requestsOk(pods, metric)
          && fast.positional(pods, (PositionalSamples) positional.samples(), metric.resource(), metric.container()) != null) {
        fastTaken++;
      }
      // the next decision: usually later, sometimes earlier (the calculator does not assume a direction)
      now = now.plusSeconds(r.nextInt(8) == 0 ? -r.nextInt(120) : r.nextInt(240)).plusMillis(r.nextInt(3) * 500);
    }
    if (applicable && !pods.isEmpty() && pods.stream().allMatch(p -> p.containers() == SHARED && p.podRequests().isEmpty())) {
      assertThat(fastTaken).as("positional path taken").isEqualTo(decisions);
    }
  }

  /**
   * Two autoscalers over the same evolving workload (pods created, becoming Ready, deleted; the list object kept
   * between changes, as the simulator keeps it), one fed positional readings and one explicit maps, decide the
   * same at every step.
   */
  @ParameterizedTest(name = "seed {0}")
  @MethodSource("autoscalerSeeds")
  void anAutoscalerDecidesTheSameOverAnEvolvingWorkload(long seed) {
    Random r = new Random(seed);
    HpaConfig config = new HpaConfig(List.of(HpaMetric.resourceUtilization("cpu", 40 + r.nextInt(50))), 1, 500, null,
        Tolerance.DEFAULT, Duration.ofSeconds(15 + 15 * r.nextInt(4)), Duration.ofMinutes(r.nextInt(6)),
        HpaReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD, HpaReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY,
        null);
    Instant t0 = NOW;
    HpaAutoscaler fast = new HpaAutoscaler(config, t0);
    HpaAutoscaler reference = new HpaAutoscaler(config, t0);
    List<PodInfo> live = new ArrayList<>();
    List<Long> readyAt = new ArrayList<>(); // epoch second a pod turned Ready, MAX_VALUE while not
    int seq = 0;
    int replicas = 5 + r.nextInt(40);
    for (int i = 0; i < replicas; i++) {
      live.add(PodInfo.running("w-" + seq++, 1000, t0.minusSeconds(7200), t0.minusSeconds(7100)));
      readyAt.add(t0.minusSeconds(7100).getEpochSecond());
    }
    List<PodInfo> pods = List.copyOf(live);
    Instant now = t0;
    java.util.Set<Integer> counts = new java.util.HashSet<>();
    for (int step = 0; step < 400; step++) {
      now = now.plusSeconds(15);
      boolean changed = false;
      // pods the Deployment creates for the current count, pending pods starting, started pods turning Ready
      while (live.size() < replicas) {
        live.add(new PodInfo("w-" + seq++, PodPhase.PENDING, false, null, null, null, SHARED_CPU, Map.of()));
        readyAt.add(Long.MAX_VALUE);
        changed = true;
      }
      for (int i = 0; i < live.size(); i++) {
        PodInfo p = live.get(i);
        if (p.phase() == PodPhase.PENDING && r.nextInt(3) == 0) {
          live.set(i, new PodInfo(p.name(), PodPhase.RUNNING, false, false, now, now, SHARED_CPU, Map.of()));
          changed = true;
        } else if (p.phase() == PodPhase.RUNNING && Boolean.FALSE.equals(p.ready()) && r.nextInt(2) == 0) {
          live.set(i, p.withReady(true, now));
          readyAt.set(i, now.getEpochSecond());
          changed = true;
        }
      }
      while (live.size() > replicas) {
        int victim = live.size() - 1 - r.nextInt(Math.min(3, live.size()));
        live.remove(victim);
        readyAt.remove(victim);
        changed = true;
      }
      if (changed) {
        pods = List.copyOf(live);
      }
      // a sample taken a minute ago covers the pods Ready by then
      Instant sampledAt = now.minusSeconds(60);
      BitSet covered = new BitSet();
      Map<String, PodSample> explicit = new LinkedHashMap<>();
      double load = 0.3 + 0.6 * (1 + Math.sin(step / 40.0)) / 2 * (1 + r.nextGaussian() * 0.05);
      PodSample sample = PodSample.of(Math.round(load * 1000), sampledAt);
      for (int i = 0; i < pods.size(); i++) {
        if (readyAt.get(i) <= sampledAt.getEpochSecond()) {
          covered.set(i);
          explicit.put(pods.get(i).name(), sample);
        }
      }
      int spec = replicas;
      HpaDecision a = fast.decide(now, new ScaleTarget(spec, pods.size(), pods),
          Map.of("cpu", explicit.isEmpty() ? new MetricReading.Failed("none") : MetricReading.PodSamples.uniform(pods, covered, sample)));
      HpaDecision b = reference.decide(now, new ScaleTarget(spec, pods.size(), pods),
          Map.of("cpu", explicit.isEmpty() ? new MetricReading.Failed("none") : new MetricReading.PodSamples(explicit)));
      assertThat(a).as("step %d", step).isEqualTo(b);
      replicas = a.replicas();
      counts.add(replicas);
    }
    assertThat(counts).as("the workload was scaled").hasSizeGreaterThan(3);
  }

  static LongStream autoscalerSeeds() {
    return LongStream.rangeClosed(1, 20);
  }

  @Test
  void aMutableOrOtherListTakesTheByNamePath() {
    HpaReplicaCalculator calc = HpaReplicaCalculator.defaults();
    List<PodInfo> pods = List.copyOf(HpaFixtures.uniform(4, 1000));
    BitSet covered = new BitSet();
    covered.set(0, 3);
    PodSample sample = PodSample.of(900, NOW);
    PositionalSamples samples = (PositionalSamples) MetricReading.PodSamples.uniform(pods, covered, sample).samples();
    assertThat(calc.positional(pods, samples, "cpu", null)).isNotNull();
    assertThat(calc.positional(new ArrayList<>(pods), samples, "cpu", null)).isNull();
    HpaMetric cpu = HpaMetric.resourceUtilization("cpu", 50);
    MetricProposal onCopy = calc.propose(NOW, cpu, 4, 4, new ArrayList<>(pods), new MetricReading.PodSamples(samples),
        Tolerance.DEFAULT);
    MetricProposal onSame = calc.propose(NOW, cpu, 4, 4, pods, new MetricReading.PodSamples(samples), Tolerance.DEFAULT);
    assertThat(onCopy).isEqualTo(onSame);
  }

  @Test
  void theMapViewFollowsNamesIncludingRepeatedOnes() {
    List<PodInfo> pods = List.of(PodInfo.running("a", 1, NOW, NOW), PodInfo.running("b", 1, NOW, NOW),
        PodInfo.running("a", 1, NOW, NOW));
    BitSet covered = new BitSet();
    covered.set(1);
    covered.set(2);
    PodSample sample = PodSample.of(5, NOW);
    Map<String, PodSample> m = MetricReading.PodSamples.uniform(pods, covered, sample).samples();
    assertThat(m).hasSize(2).containsEntry("a", sample).containsEntry("b", sample);
    assertThat(m.keySet()).containsExactly("b", "a");
    assertThat(m.get("c")).isNull();
    assertThat(ListedPodFacts.uniqueNames(pods)).isFalse();
    covered.set(7);
    assertThatThrownBy(() -> MetricReading.PodSamples.uniform(pods, covered, sample))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void uniqueNamesFindsEveryRepeat() {
    Random r = new Random(5);
    for (int round = 0; round < 300; round++) {
      int n = r.nextInt(200);
      List<PodInfo> pods = new ArrayList<>();
      java.util.Set<String> seen = new java.util.HashSet<>();
      boolean unique = true;
      for (int i = 0; i < n; i++) {
        String name = "p" + r.nextInt(Math.max(1, n * (1 + r.nextInt(20))));
        unique &= seen.add(name);
        pods.add(PodInfo.running(name, 1, NOW, NOW));
      }
      assertThat(ListedPodFacts.uniqueNames(pods)).isEqualTo(unique);
    }
  }

  @Test
  void addTimesIsRepeatedSaturatingAddition() {
    Random r = new Random(11);
    long[] interesting = {0, 1, -1, 7, -7, 1000, Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE / 3, Long.MIN_VALUE / 3,
        Long.MAX_VALUE - 5, Long.MIN_VALUE + 5};
    for (int round = 0; round < 2000; round++) {
      long start = r.nextBoolean() ? interesting[r.nextInt(interesting.length)] : r.nextLong() >> r.nextInt(64);
      long x = r.nextBoolean() ? interesting[r.nextInt(interesting.length)] : r.nextLong() >> r.nextInt(64);
      int k = r.nextInt(50);
      long expected = start;
      for (int i = 0; i < k; i++) {
        expected = Quantities.add(expected, x);
      }
      assertThat(HpaReplicaCalculator.addTimes(start, x, k)).as("%d + %d x %d", start, k, x).isEqualTo(expected);
    }
  }

  // ---- generators ----------------------------------------------------------------------------------------------

  private static Object propose(HpaReplicaCalculator calc, Instant now, HpaMetric metric, int current,
      List<PodInfo> pods, MetricReading reading, Tolerance tol) {
    try {
      return calc.propose(now, metric, current, current, pods, reading, tol);
    } catch (RuntimeException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  /** Pods; some start within two seconds of {@code NOW − period} (on either side of the warming boundary). */
  private static List<PodInfo> randomPods(Random r, Duration period) {
    int n = r.nextInt(10) == 0 ? 0 : 1 + r.nextInt(r.nextBoolean() ? 8 : 150);
    int requests = r.nextInt(10); // 0-5 shared, 6 equal copies, 7 mixed, 8 pod-level, 9 one missing
    List<PodInfo> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String name = r.nextInt(40) == 0 && i > 0 ? "p" + r.nextInt(i) : "p" + i;
      List<ContainerRequests> containers = SHARED;
      Map<String, Long> podRequests = Map.of();
      if (requests == 6) {
        containers = List.of(new ContainerRequests("app", Map.of("cpu", 1000L, "memory", 2_000_000L)));
      } else if (requests == 7) {
        containers = List.of(new ContainerRequests("app", Map.of("cpu", 500L + 500 * r.nextInt(2), "memory", 1L)),
            new ContainerRequests("side", Map.of("cpu", 100L, "memory", 1L)));
      } else if (requests == 8) {
        podRequests = Map.of("cpu", r.nextInt(4) == 0 ? 0L : 2000L);
      } else if (requests == 9 && r.nextInt(n) == 0) {
        containers = List.of(new ContainerRequests("app", Map.of("memory", 5L)));
      }
      Instant start = NOW.minusSeconds(r.nextInt(3) == 0 ? r.nextInt(900) : 3600 + r.nextInt(3600))
          .plusMillis(r.nextBoolean() ? 0 : r.nextInt(1000));
      if (r.nextInt(6) == 0) {
        start = NOW.minus(period).plusMillis(r.nextInt(4000) - 2000);
      }
      Instant transition = start.plusSeconds(r.nextInt(120));
      PodPhase phase = PodPhase.RUNNING;
      boolean terminating = false;
      Boolean ready = true;
      switch (r.nextInt(14)) {
        case 0 -> phase = PodPhase.PENDING;
        case 1 -> phase = PodPhase.FAILED;
        case 2 -> terminating = true;
        case 3 -> ready = null;
        case 4 -> start = null;
        case 5 -> transition = null;
        case 6 -> ready = false;
        case 7 -> {
          ready = false;
          transition = start;
        }
        case 8 -> phase = r.nextBoolean() ? PodPhase.UNKNOWN : PodPhase.SUCCEEDED;
        default -> { }
      }
      out.add(new PodInfo(name, phase, terminating, ready, transition, start, containers, podRequests));
    }
    return out;
  }

  /** {@code atTarget}: a per-pod value at exactly the target utilisation (ratio 1), or -1. */
  private static PodSample randomSample(Random r, Instant now, long atTarget) {
    long value = switch (r.nextInt(12)) {
      case 3, 4 -> atTarget >= 0 ? atTarget : 100;
      case 0 -> -r.nextInt(500);
      case 1 -> Long.MAX_VALUE / (1 + r.nextInt(1000));
      case 2 -> 0;
      default -> r.nextInt(3000);
    };
    Duration window = r.nextInt(4) == 0 ? Duration.ofSeconds(15 + r.nextInt(120)) : PodSample.DEFAULT_WINDOW;
    return new PodSample(value, now.minusSeconds(r.nextInt(150)), window);
  }

  private static HpaMetric randomMetric(Random r) {
    return switch (r.nextInt(8)) {
      case 0 -> HpaMetric.resourceUtilization("memory", 1 + r.nextInt(150));
      case 1 -> HpaMetric.containerUtilization("cpu", "app", 1 + r.nextInt(150));
      case 2 -> HpaMetric.resourceUtilization("cpu", 100 + r.nextInt(400));
      default -> HpaMetric.resourceUtilization("cpu", 1 + r.nextInt(150));
    };
  }

  private static long atTarget(List<PodInfo> pods, HpaMetric metric) {
    try {
      return pods.isEmpty() ? -1 : pods.get(0).request(metric.resource(), metric.container()) * metric.target() / 100;
    } catch (PodInfo.MissingRequestException e) {
      return -1;
    }
  }

  private static boolean uniformRequests(List<PodInfo> pods) {
    return pods.stream().map(p -> p.containers()).distinct().count() <= 1
        && pods.stream().map(p -> p.podRequests()).distinct().count() <= 1;
  }

  private static boolean requestsOk(List<PodInfo> pods, HpaMetric metric) {
    try {
      long first = pods.get(0).request(metric.resource(), metric.container());
      return first >= 0 && pods.stream().allMatch(p -> p.request(metric.resource(), metric.container()) == first);
    } catch (PodInfo.MissingRequestException e) {
      return false;
    }
  }
}
