package dev.headroom.sim.adapters;

import dev.headroom.core.workload.ContainerRequests;
import dev.headroom.core.workload.HpaAutoscaler;
import dev.headroom.core.workload.HpaConfig;
import dev.headroom.core.workload.HpaDecision;
import dev.headroom.core.workload.HpaMetric;
import dev.headroom.core.workload.HpaNormalizer;
import dev.headroom.core.workload.HpaReplicaCalculator;
import dev.headroom.core.workload.KedaConfig;
import dev.headroom.core.workload.MetricReading;
import dev.headroom.core.workload.PodInfo;
import dev.headroom.core.workload.PodPhase;
import dev.headroom.core.workload.PodSample;
import dev.headroom.core.workload.ScaleTarget;
import dev.headroom.core.workload.TargetKind;
import dev.headroom.core.workload.Tolerance;
import dev.headroom.sim.cluster.DeploymentController;
import dev.headroom.sim.cluster.SimPod;
import dev.headroom.sim.engine.VirtualClock;
import dev.headroom.sim.load.MetricsHistory;
import dev.headroom.sim.scenario.Scenario;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.TreeMap;

/**
 * The workload autoscaler of one Deployment: the core's {@link HpaAutoscaler} (HPA mode, with the KEDA
 * activation loop for KEDA-style workloads), fed with the simulated metrics read through the metrics delay.
 * CPU is reported per Ready pod as the workload's utilisation times the pod's CPU request; the queue is an
 * External {@code AverageValue} metric (KEDA's default trigger type).
 */
public final class SimWorkloadAutoscaler {

  /** Metric name of the CPU signal. */
  public static final String CPU = "cpu";
  /** Metric name of the queue signal. */
  public static final String QUEUE = "queue";

  private final DeploymentController deployment;
  private final MetricsHistory metrics;
  private final HpaAutoscaler hpa;
  private final Duration period;
  private final long cpuRequestMilli;
  private final List<Scenario.MetricTarget> targets;
  private final List<ContainerRequests> containers;
  private int rescales;
  /** The pods as of {@link #podsVersion}: the HPA's records and Ready times (MAX_VALUE: not Ready). */
  private long podsVersion = -1;
  private List<PodInfo> infos = List.of();
  private long[] readyAt = new long[0];
  /** Positions (in {@link #infos}) of the Ready pods the last sample covered, and how many. */
  private BitSet sampled = new BitSet();
  private int sampledCount = -1;

  /**
   * An autoscaler for a workload.
   *
   * @param created creation time of the HPA/ScaledObject
   */
  public SimWorkloadAutoscaler(Scenario.Workload workload, DeploymentController deployment, MetricsHistory metrics,
      Instant created) {
    this.deployment = deployment;
    this.metrics = metrics;
    this.cpuRequestMilli = deployment.pods().isEmpty() ? cpuRequest(workload) : deployment.pods().get(0).requests().getOrDefault("cpu", 0L);
    this.containers = List.of(new ContainerRequests("app", Map.of("cpu", cpuRequestMilli)));
    if (workload.autoscaling() instanceof Scenario.Hpa h) {
      this.targets = h.metrics();
      HpaConfig config = new HpaConfig(hpaMetrics(h.metrics()), h.minReplicas(), h.maxReplicas(), null,
          new Tolerance(h.tolerance(), h.tolerance()), h.syncPeriod(), h.scaleDownStabilization(),
          HpaReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD, HpaReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY, null);
      this.hpa = new HpaAutoscaler(config, created);
      this.period = h.syncPeriod();
    } else if (workload.autoscaling() instanceof Scenario.Keda k) {
      this.targets = k.metrics();
      Map<String, Long> activation = new TreeMap<>();
      for (Scenario.MetricTarget t : k.metrics()) {
        if (t.metric() == Scenario.MetricName.QUEUE) {
          activation.put(QUEUE, Math.round(k.activationThreshold() * 1000));
        }
      }
      KedaConfig keda = new KedaConfig(k.pollingInterval(), k.cooldownPeriod(), Duration.ZERO, k.minReplicaCount(),
          k.maxReplicaCount(), OptionalInt.empty(), activation, null, false, false);
      HpaConfig config = new HpaConfig(hpaMetrics(k.metrics()), Math.max(1, k.minReplicaCount()), k.maxReplicaCount(),
          null, Tolerance.DEFAULT, HpaConfig.DEFAULT_SYNC_PERIOD, HpaNormalizer.DEFAULT_DOWNSCALE_STABILIZATION,
          HpaReplicaCalculator.DEFAULT_CPU_INITIALIZATION_PERIOD, HpaReplicaCalculator.DEFAULT_INITIAL_READINESS_DELAY, keda);
      this.hpa = new HpaAutoscaler(config, created);
      this.period = k.pollingInterval().compareTo(HpaConfig.DEFAULT_SYNC_PERIOD) < 0 ? k.pollingInterval() : HpaConfig.DEFAULT_SYNC_PERIOD;
    } else {
      this.targets = List.of();
      this.hpa = null;
      this.period = null;
    }
  }

  /** How often to call {@link #decide}; null when the workload is not autoscaled. */
  public Duration period() {
    return period;
  }

  /** Replica changes written so far. */
  public int rescales() {
    return rescales;
  }

  /** One decision at {@code now}; a changed count is written to the Deployment. */
  public HpaDecision decide(long nowMillis) {
    Instant now = VirtualClock.at(nowMillis);
    MetricsHistory.Sample sample = metrics.read(nowMillis);
    refreshPods();
    // every Ready pod reports the same usage (the workload's utilisation times the shared request)
    PodSample podSample = sample == null ? null
        : PodSample.of(Math.round(sample.cpuUtilization() / 100.0 * cpuRequestMilli), VirtualClock.at(sample.atMillis()));
    int samples = podSample == null ? 0 : sampledAt(sample.atMillis());
    Map<String, MetricReading> readings = new LinkedHashMap<>();
    for (Scenario.MetricTarget t : targets) {
      if (t.metric() == Scenario.MetricName.CPU) {
        readings.put(CPU, samples == 0 ? new MetricReading.Failed("no metrics returned from resource metrics API")
            : MetricReading.PodSamples.uniform(infos, sampled, podSample));
      } else if (sample != null) {
        readings.put(QUEUE, new MetricReading.ExternalValues(List.of(Math.round(sample.queue() * 1000))));
      }
    }
    int spec = deployment.desired();
    // an immutable list, which the target keeps without another copy
    HpaDecision d = hpa.decide(now, new ScaleTarget(spec, infos.size(), infos), readings);
    if (d.replicas() != spec) {
      rescales++;
      deployment.scale(d.replicas());
    }
    return d;
  }

  /**
   * Rebuilds the pods' records when the Deployment's pods changed since the last decision: the HPA's pod list,
   * and each pod's Ready time (for which pods the delayed sample covers).
   */
  private void refreshPods() {
    long version = deployment.podsVersion();
    if (version == podsVersion) {
      return;
    }
    List<SimPod> live = deployment.pods();
    PodInfo[] pods = new PodInfo[live.size()];
    readyAt = new long[live.size()];
    for (int i = 0; i < pods.length; i++) {
      SimPod p = live.get(i);
      pods[i] = podInfo(p);
      readyAt[i] = p.state() == SimPod.State.RUNNING ? p.readyAt() : Long.MAX_VALUE;
    }
    infos = List.of(pods);
    podsVersion = version;
    sampledCount = -1;
  }

  /**
   * The number of Ready pods a sample taken at {@code atMillis} covers; {@link #sampled} holds their positions.
   * For unchanged pods the covered sets only grow with time, so an equal count means the same set.
   */
  private int sampledAt(long atMillis) {
    int count = 0;
    for (long r : readyAt) {
      if (r <= atMillis) {
        count++;
      }
    }
    if (count != sampledCount) {
      BitSet covered = new BitSet(readyAt.length);
      for (int i = 0; i < readyAt.length; i++) {
        if (readyAt[i] <= atMillis) {
          covered.set(i);
        }
      }
      sampled = covered;
      sampledCount = count;
    }
    return count;
  }

  /**
   * What the HPA sees of a pod. A pod's phase, readiness and times change only with its lifecycle state (and
   * the victim mark), so the record is built once per state and reused across decisions.
   */
  private PodInfo podInfo(SimPod p) {
    if (p.adapterView() instanceof CachedPodInfo c && c.state() == p.state() && c.victim() == p.victim()) {
      return c.info();
    }
    boolean bound = p.node() != null;
    boolean ready = p.state() == SimPod.State.RUNNING;
    Instant start = bound ? VirtualClock.at(p.boundAt()) : null;
    Instant readySince = ready ? VirtualClock.at(p.readyAt()) : start;
    PodInfo info = new PodInfo(p.name(), bound ? PodPhase.RUNNING : PodPhase.PENDING, p.victim(), bound ? ready : null,
        readySince, start, containers, Map.of());
    p.adapterView(new CachedPodInfo(p.state(), p.victim(), info));
    return info;
  }

  private record CachedPodInfo(SimPod.State state, boolean victim, PodInfo info) {}

  private static List<HpaMetric> hpaMetrics(List<Scenario.MetricTarget> targets) {
    List<HpaMetric> out = new ArrayList<>();
    for (Scenario.MetricTarget t : targets) {
      out.add(t.metric() == Scenario.MetricName.CPU
          ? HpaMetric.resourceUtilization(CPU, (int) Math.round(t.target()))
          : HpaMetric.external(QUEUE, TargetKind.AVERAGE_VALUE, Math.round(t.target() * 1000)));
    }
    return out;
  }

  private static long cpuRequest(Scenario.Workload w) {
    return dev.headroom.core.resources.EffectiveRequests.of(w.pod()).getOrDefault("cpu", 0L);
  }
}
