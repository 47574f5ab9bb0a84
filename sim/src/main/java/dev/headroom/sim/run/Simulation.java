package dev.headroom.sim.run;

import dev.headroom.core.autoscaler.Autoscaler;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.AutoscalerState;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.LoopTrigger;
import dev.headroom.core.autoscaler.SnapshotSimulation;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.sim.adapters.SimBuffers;
import dev.headroom.sim.adapters.SimClusterView;
import dev.headroom.sim.adapters.SimWorkloadAutoscaler;
import dev.headroom.sim.cluster.CostLedger;
import dev.headroom.sim.cluster.DeploymentController;
import dev.headroom.sim.cluster.GangJobController;
import dev.headroom.sim.cluster.GangLedger;
import dev.headroom.sim.cluster.JobController;
import dev.headroom.sim.cluster.SchedulerModel;
import dev.headroom.sim.cluster.SimCluster;
import dev.headroom.sim.cluster.SimNode;
import dev.headroom.sim.cluster.SimPod;
import dev.headroom.sim.cluster.SimProvider;
import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.engine.VirtualClock;
import dev.headroom.sim.load.LoadModel;
import dev.headroom.sim.load.MetricsHistory;
import dev.headroom.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * One strategy's run of a scenario on a virtual clock. It assembles the simulated cluster and drives the
 * core's code on it, exactly as the cluster runtime would: the buffer controller
 * ({@code BufferReconciler}), the autoscaler iteration ({@code Autoscaler.runOnce} with its persistent
 * {@code AutoscalerState}) and the workload autoscaler ({@code HpaAutoscaler}). The simulator owns only the
 * world: node provisioning, pods, the scheduler, load, metrics and measurements.
 */
public final class Simulation {

  /** Name of the balloon Deployment (the Cluster Autoscaler FAQ calls it overprovisioning). */
  public static final String BALLOON_DEPLOYMENT = "overprovisioning";

  private final Scenario scenario;
  private final Scenario.Strategy strategy;
  private final long seed;
  private final LongConsumer progress;

  private final VirtualClock clock = new VirtualClock();
  private final EventQueue events = new EventQueue(clock);
  private final WaitStats waits = new WaitStats();
  private final PodWaits.Builder podWaits = new PodWaits.Builder();
  private final List<StrategyResult.ScaleUpEvent> scaleUpEvents = new ArrayList<>();
  private Episodes.CoverageRecorder coverage;
  private int peakBufferReplicas;
  private boolean keepTicks = true;
  private final CostLedger ledger = new CostLedger();
  private final List<TickSample> ticks = new ArrayList<>();
  private final Map<String, DeploymentController> deployments = new LinkedHashMap<>();
  private final List<LoadModel> loads = new ArrayList<>();
  private final List<DeploymentController> workloadDeployments = new ArrayList<>();
  private final GangLedger gangLedger = new GangLedger();
  private final List<GangJobController> gangJobs = new ArrayList<>();
  private FragmentationSamples fragmentation;
  private SimCluster cluster;
  private SimProvider provider;
  private SchedulerModel scheduler;
  private SimBuffers buffers;
  private Autoscaler autoscaler;
  private AutoscalerOptions autoscalerOptions;
  private long maxWaitThisTick;
  private int overSlo;
  private int preempted;
  private int scaleUps;
  private int nodesAdded;
  private int nodesRemoved;
  private double utilizationSum;
  private int utilizationTicks;
  private boolean verify;
  private boolean skipIdleLoops = true;
  private long loopVersion = -1;
  private boolean lastLoopIdle;
  private java.time.Instant lastLoopAt;
  private long loopsRun;
  private long loopsSkipped;

  /**
   * A run of one strategy.
   *
   * @param progress receives the simulated time (ms) after every tick; may be null
   */
  public Simulation(Scenario scenario, Scenario.Strategy strategy, long seed, LongConsumer progress) {
    this.scenario = scenario;
    this.strategy = strategy;
    this.seed = seed;
    this.progress = progress;
  }

  /** Turns on the scheduler's idle-room check (tests); see {@link SchedulerModel#verify(boolean)}. */
  public Simulation verifying() {
    this.verify = true;
    return this;
  }

  /** Runs every autoscaler loop even when nothing changed since an idle one (tests compare both ways). */
  public Simulation everyLoop() {
    this.skipIdleLoops = false;
    return this;
  }

  /**
   * Keeps no per-tick samples (the result's {@code ticks} is empty): runs whose ticks nobody reads (the further
   * seeds of a multi-seed run, {@code recommend}) then hold memory independent of the simulated duration.
   */
  public Simulation withoutTicks() {
    this.keepTicks = false;
    return this;
  }

  /** Autoscaler loops run. */
  public long loopsRun() {
    return loopsRun;
  }

  /** Autoscaler loops skipped because the previous loop was idle and nothing changed since. */
  public long loopsSkipped() {
    return loopsSkipped;
  }

  /** Pending real pods that could have bound (0 unless verifying found a defect). */
  public long idleRoomViolations() {
    return scheduler == null ? 0 : scheduler.idleRoomViolations();
  }

  /** Runs the scenario to its end and returns the measurements. */
  public StrategyResult run() {
    SimRandom random = new SimRandom(seed);
    long sloMillis = scenario.sloPodWait().toMillis();
    cluster = new SimCluster(events, (pod, wait, bound) -> {
      waits.add(wait);
      podWaits.add(pod.createdAt(), wait, pod.owner());
      if (wait > sloMillis) {
        overSlo++;
      }
      if (bound && pod.preemptor()) {
        preempted++;
      }
      maxWaitThisTick = Math.max(maxWaitThisTick, wait);
    });
    // a strategy with standby buffers (a warm pool is one) turns on the standby strategy in the buffer controller and
    // the autoscaler; a warm pool also gives its group spec.standby
    boolean standby = StandbyStrategies.uses(strategy);
    provider = new SimProvider(cluster, StandbyStrategies.nodeGroups(scenario.nodeGroups(), strategy), random.stream("provider"),
        scenario.settings().provisioningJitter(), ledger);
    Map<String, Long> startup = new LinkedHashMap<>();
    scheduler = new SchedulerModel(cluster, scenario.settings().preemptionDelay().toMillis(),
        p -> startup.getOrDefault(p.owner(), 0L));
    scheduler.verify(verify);
    provider.bootstrap();

    SimRandom names = random.stream("names");
    long tickMillis = scenario.tick().toMillis();
    long end = scenario.duration().toMillis();
    List<SimWorkloadAutoscaler> hpas = new ArrayList<>();
    for (Scenario.Workload w : scenario.workloads()) {
      DeploymentController d = new DeploymentController(cluster, names, SimPod.Origin.WORKLOAD, w.name(), w.namespace(),
          w.priority(), w.pod(), w.replicas());
      deployments.put(w.namespace() + "/" + w.name(), d);
      workloadDeployments.add(d);
      startup.put(w.name(), w.startupTime().toMillis());
      MetricsHistory history = new MetricsHistory(scenario.settings().metricsDelay().toMillis(), tickMillis);
      loads.add(new LoadModel(w.load(), random.stream("load/" + w.namespace() + "/" + w.name()), history));
      d.bootstrap();
      SimWorkloadAutoscaler hpa = new SimWorkloadAutoscaler(w, d, history, clock.instant());
      if (hpa.period() != null) {
        hpas.add(hpa);
        every(hpa.period().toMillis(), hpa.period().toMillis(), end, Phase.WORKLOAD, () -> hpa.decide(clock.millis()));
      }
    }
    for (Scenario.Job j : scenario.jobs()) {
      startup.put(j.name(), j.startupTime().toMillis());
      new JobController(cluster, names, j, end).start();
    }
    for (Scenario.GangJob g : scenario.gangJobs()) {
      startup.put(g.name(), 0L);
      GangJobController c = new GangJobController(cluster, names, random.stream("gang/" + g.namespace() + "/" + g.name()),
          g, end, tickMillis, gangLedger);
      gangJobs.add(c);
      c.start();
    }
    if (strategy instanceof Scenario.Balloon b) {
      DeploymentController d = new DeploymentController(cluster, names, SimPod.Origin.BALLOON, BALLOON_DEPLOYMENT,
          b.namespace(), b.priority(), b.pod(), b.replicas());
      startup.put(BALLOON_DEPLOYMENT, 0L);
      d.bootstrap();
    }
    List<Scenario.BufferDef> bufferDefs = StandbyStrategies.buffers(strategy);
    if (!bufferDefs.isEmpty()) {
      buffers = new SimBuffers(cluster, deployments, bufferDefs, clock.instant(),
          BufferSettings.defaults().withStandbyCapacity(standby));
      coverage = new Episodes.CoverageRecorder(buffers.buffersByWorkload());
      long sync = scenario.settings().bufferSyncInterval().toMillis();
      buffers.reconcile(clock.instant());
      every(sync, sync, end, Phase.BUFFER, () -> buffers.reconcile(clock.instant()));
      // writes of a buffer's /scale subresource (a cron job, KEDA, kubectl scale), as the workload autoscaler writes
      for (Scenario.BufferDef d : bufferDefs) {
        for (Scenario.ScaleStep step : d.scale()) {
          long at = step.at().toMillis();
          if (at <= end) {
            SimBuffers target = buffers;
            events.at(at, Phase.WORKLOAD, () -> target.scale(d.namespace(), d.name(), step.replicas()));
          }
        }
      }
    }

    AutoscalerOptions.Builder optionsBuilder = scenario.autoscalerOptions().toBuilder().set(AutoscalerOptions.RANDOM_SEED, seed);
    if (standby) {
      optionsBuilder.set(AutoscalerOptions.STANDBY_CAPACITY, true);
    }
    AutoscalerOptions options = optionsBuilder.build();
    autoscalerOptions = options;
    fragmentation = new FragmentationSamples(chunkShapes(strategy, scenario));
    autoscaler = new Autoscaler(options, new SimClusterView(cluster, buffers, this::podGroups), provider, e -> {},
        buffers == null ? (b, c) -> {} : buffers::writeConditions, new AutoscalerState(options), cachedSimulations());
    // the loop's timing as headroom run's: every scan interval, and sooner for new pending demand (core's LoopTrigger)
    LoopSchedule loop = new LoopSchedule(events, options.scanInterval().toMillis(), end, this::autoscale);
    java.util.Set<String> demand = new java.util.HashSet<>(); // uids of pods that are pending demand now
    cluster.onPodChange(p -> {
      if (!LoopTrigger.demand(p.pod(), options.bypassedSchedulers())) {
        demand.remove(p.uid());
      } else if (demand.add(p.uid())) {
        loop.trigger(VirtualClock.millisOf(LoopTrigger.wakeAt(p.pod(), options, clock.instant())));
      }
    });
    cluster.onPodListChange(p -> {
      if (p.state() == SimPod.State.GONE) {
        demand.remove(p.uid());
      }
    });

    // load and metrics at every tick, then the tick's record
    events.at(0, Phase.RECORD, () -> record(0));
    every(tickMillis, tickMillis, end, Phase.METRICS, () -> {
      for (int i = 0; i < loads.size(); i++) {
        loads.get(i).step(clock.millis(), tickMillis / 1000.0, workloadDeployments.get(i).readyReplicas());
      }
    });
    every(tickMillis, tickMillis, end, Phase.RECORD, () -> record(clock.millis()));

    events.runUntil(end);
    // pods still pending at the end count with the time they have waited so far
    for (SimPod p : new ArrayList<>(cluster.pendingPods())) {
      if (p.real()) {
        long w = end - p.createdAt();
        waits.add(w);
        podWaits.add(p.createdAt(), w, p.owner());
        if (w > sloMillis) {
          overSlo++;
        }
      }
    }
    provider.closeLedger(end);
    for (GangJobController c : gangJobs) {
      c.close(end);
    }
    PodWaits allWaits = podWaits.build();
    StrategyResult.PodWait wait = new StrategyResult.PodWait(waits.percentile(50) / 1000.0, waits.percentile(95) / 1000.0,
        waits.percentile(99) / 1000.0, waits.max() / 1000.0);
    return new StrategyResult(strategy.name(), type(strategy), wait, waits.count(), overSlo, preempted,
        ledger.nodeHours(), ledger.cost(), provider.peakNodes(),
        utilizationTicks == 0 ? 0 : utilizationSum / utilizationTicks, scaleUps, nodesAdded, nodesRemoved,
        provider.peakPerGroup(), ticks, allWaits, scaleUpEvents,
        Episodes.of(allWaits, coverage == null ? Episodes.Coverage.none() : coverage.coverage(), scaleUpEvents, sloMillis),
        peakBufferReplicas, new BatchResult(gangJobStats(), fragmentation.result()));
  }

  /** The PodGroups of every gang job's live jobs (the view's {@code podGroups()}). */
  private List<dev.headroom.core.autoscaler.PodGroups.Group> podGroups() {
    if (gangJobs.isEmpty()) {
      return List.of();
    }
    List<dev.headroom.core.autoscaler.PodGroups.Group> out = new ArrayList<>();
    for (GangJobController c : gangJobs) {
      out.addAll(c.podGroups());
    }
    return out;
  }

  private BatchResult.GangJobs gangJobStats() {
    if (scenario.gangJobs().isEmpty()) {
      return BatchResult.GangJobs.NONE;
    }
    WaitStats delays = new WaitStats();
    for (long d : gangLedger.startDelays()) {
      delays.add(d);
    }
    return new BatchResult.GangJobs(scenario.gangJobs().size(), gangLedger.jobs(), gangLedger.started(),
        gangLedger.completed(), gangLedger.timeouts(), gangLedger.restarts(), delays.percentile(50) / 1000.0,
        delays.percentile(95) / 1000.0, delays.max() / 1000.0, gangLedger.idleGpuHours(), gangLedger.idleWorkerHours());
  }

  /** Each buffer's chunk shape ({@code namespace/name} to its requests), to label the fragmentation figures. */
  private static Map<String, String> chunkShapes(Scenario.Strategy strategy, Scenario scenario) {
    Map<String, String> out = new LinkedHashMap<>();
    if (!(strategy instanceof Scenario.Buffers bs)) {
      return out;
    }
    for (Scenario.BufferDef d : bs.buffers()) {
      if (StandbyStrategies.standby(d)) {
        // its chunks are kept on standby nodes, not in the Ready nodes' free room
        continue;
      }
      io.fabric8.kubernetes.api.model.PodSpec pod = d.podTemplate() != null ? d.podTemplate().getTemplate().getSpec()
          : scenario.workloads().stream().filter(w -> w.namespace().equals(d.namespace())
              && d.spec().getScalableRef() != null && w.name().equals(d.spec().getScalableRef().getName()))
              .map(Scenario.Workload::pod).findFirst().orElse(null);
      out.put(d.namespace() + "/" + d.name(), pod == null ? "" : shape(pod));
    }
    return out;
  }

  /** {@code cpu 8, memory 64Gi, nvidia.com/gpu 8}: a pod spec's effective requests. */
  static String shape(io.fabric8.kubernetes.api.model.PodSpec pod) {
    StringBuilder b = new StringBuilder();
    for (Map.Entry<String, Long> e : new java.util.TreeMap<>(dev.headroom.core.resources.EffectiveRequests.of(pod)).entrySet()) {
      if (e.getValue() > 0) {
        b.append(b.length() == 0 ? "" : ", ").append(e.getKey()).append(' ')
            .append(dev.headroom.core.resources.Quantities.format(e.getKey(), e.getValue()));
      }
    }
    return b.toString();
  }

  /**
   * One autoscaler iteration. A loop is skipped only when it would repeat the previous one exactly: that one was
   * idle — nothing pending, no virtual pod needing capacity, no node unneeded, no scale-up in flight, every node
   * Ready — and left the autoscaler's memory as it found it; nothing observable changed since, no pod is
   * terminating (its grace period runs on the clock), and none of the memory's clocks (unremovable rechecks,
   * cooldowns) has been reached since (see {@link dev.headroom.core.autoscaler.AutoscalerState#clockReached}).
   */
  private IterationResult autoscale() {
    java.time.Instant now = clock.instant();
    if (skipIdleLoops && lastLoopIdle && cluster.version() == loopVersion && !cluster.anyTerminating()
        && !autoscaler.state().clockReached(lastLoopAt, now, autoscalerOptions)) {
      loopsSkipped++;
      fragmentation.repeat();
      return null;
    }
    AutoscalerState.Memory before = skipIdleLoops ? autoscaler.state().memory() : null;
    IterationResult r = autoscaler.runOnce(now);
    loopsRun++;
    fragmentation.sample(r.buffers());
    for (IterationResult.ScaleUpDecision d : r.scaleUp()) {
      scaleUps++;
      nodesAdded += d.delta();
      scaleUpEvents.add(new StrategyResult.ScaleUpEvent(clock.millis(), d.nodeGroup(), d.delta(), d.realPods(), d.virtualPods()));
    }
    nodesRemoved += r.scaleDown().size();
    lastLoopIdle = skipIdleLoops && idle(r) && autoscaler.state().memory().equals(before);
    lastLoopAt = now;
    loopVersion = cluster.version();
    return r;
  }

  /** True when the iteration acted on nothing and found nothing to act on later. */
  private boolean idle(IterationResult r) {
    if (!r.scaleUp().isEmpty() || !r.scaleDown().isEmpty() || !r.unneededNodes().isEmpty() || r.pendingPods().total() != 0
        || !autoscaler.state().scaleUpRequests().isEmpty()) {
      return false;
    }
    for (IterationResult.BufferOutcome b : r.buffers()) {
      if (b.onUpcomingNodes() != 0 || b.onNewNodes() != 0 || b.unschedulable() != 0) {
        return false;
      }
    }
    for (SimNode n : cluster.nodes()) {
      if (!n.ready()) {
        return false;
      }
    }
    return true;
  }

  private void every(long first, long period, long end, Phase phase, Runnable action) {
    if (first > end) {
      return;
    }
    events.at(first, phase, () -> {
      action.run();
      if (clock.millis() + period <= end) {
        every(clock.millis() + period, period, end, phase, action);
      }
    });
  }

  private void record(long now) {
    int nodes = 0;
    int ready = 0;
    double util = 0;
    for (SimNode n : cluster.nodes()) {
      nodes++;
      if (n.ready()) {
        ready++;
        util += n.realUtilization();
      }
    }
    int pending = 0;
    int pendingBalloons = 0;
    long oldest = 0;
    for (SimPod p : cluster.pendingPods()) {
      if (p.real()) {
        pending++;
        oldest = Math.max(oldest, now - p.createdAt());
      } else {
        pendingBalloons++;
      }
    }
    double meanUtil = ready == 0 ? 0 : util / ready;
    if (ready > 0) {
      utilizationSum += meanUtil;
      utilizationTicks++;
    }
    List<TickSample.WorkloadSample> ws = new ArrayList<>(loads.size());
    for (int i = 0; i < loads.size(); i++) {
      DeploymentController d = workloadDeployments.get(i);
      LoadModel l = loads.get(i);
      ws.add(new TickSample.WorkloadSample(d.desired(), d.readyReplicas(), l.lastRate(), l.backlog(), l.lastUtilization()));
    }
    int stopped = provider.standbyInstances();
    int bufferReplicas = buffers == null ? 0 : buffers.totalReplicas();
    if (coverage != null) {
      coverage.record(now, buffers.replicasByWorkload());
    }
    peakBufferReplicas = Math.max(peakBufferReplicas, bufferReplicas);
    if (keepTicks) {
      ticks.add(new TickSample(now / 1000, nodes, ready, pending, pendingBalloons, oldest / 1000.0,
          maxWaitThisTick / 1000.0, meanUtil, bufferReplicas, stopped, ws));
    }
    maxWaitThisTick = 0;
    if (progress != null) {
      progress.accept(now);
    }
  }

  /** The type keyword of a strategy. */
  public static String type(Scenario.Strategy s) {
    if (s instanceof Scenario.NoBuffer) {
      return "none";
    }
    if (s instanceof Scenario.Balloon) {
      return "balloon";
    }
    if (s instanceof Scenario.Buffers) {
      return "buffer";
    }
    return "warm-pool";
  }

  /** Snapshot simulations sharing one compiled-object cache across the autoscaler's loops. */
  private static java.util.function.Supplier<dev.headroom.core.autoscaler.SchedulingSimulation> cachedSimulations() {
    dev.headroom.core.autoscaler.CompileCache cache = new dev.headroom.core.autoscaler.CompileCache();
    return () -> new SnapshotSimulation(cache);
  }
}
