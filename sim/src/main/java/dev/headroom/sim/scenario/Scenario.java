package dev.headroom.sim.scenario;

import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A parsed simulation scenario: the cluster (node groups), the workloads with their autoscaling and load,
 * batch jobs, the strategies to compare, and the SLO.
 *
 * @param file label of the source (path as given, or {@code <default>})
 * @param name scenario name
 * @param description one-line description
 * @param duration simulated time
 * @param tick sampling step of the load model, metrics and the per-tick output
 * @param seed default seed (the command line may override it)
 * @param sloPodWait pods that wait longer than this count as over the SLO
 * @param settings model settings (delays, jitter, intervals)
 * @param autoscalerOptions options of the autoscaler core (defaults plus the scenario's overrides)
 * @param nodeGroups node groups from {@code NodeGroup} documents
 * @param workloads Deployments scaled by the workload autoscaler
 * @param jobs batch jobs arriving on a schedule
 * @param gangJobs gang (all-or-nothing) jobs: N workers that start only when all are bound
 * @param strategies strategies compared in one run, in file order
 * @param currency unit of the node groups' prices ({@code spec.currency}, e.g. {@code USD}; empty if not named)
 */
public record Scenario(
    String file,
    String name,
    String description,
    Duration duration,
    Duration tick,
    long seed,
    Duration sloPodWait,
    Settings settings,
    AutoscalerOptions autoscalerOptions,
    List<NodeGroup> nodeGroups,
    List<Workload> workloads,
    List<Job> jobs,
    List<GangJob> gangJobs,
    List<Strategy> strategies,
    String currency) {

  public Scenario {
    nodeGroups = List.copyOf(nodeGroups);
    workloads = List.copyOf(workloads);
    jobs = List.copyOf(jobs);
    gangJobs = List.copyOf(gangJobs);
    strategies = List.copyOf(strategies);
  }

  /** The same scenario with other strategies (used by {@code recommend}). */
  public Scenario withStrategies(List<Strategy> other) {
    return new Scenario(file, name, description, duration, tick, seed, sloPodWait, settings, autoscalerOptions,
        nodeGroups, workloads, jobs, gangJobs, other, currency);
  }

  /** The same scenario with another duration. */
  public Scenario withDuration(Duration d) {
    return new Scenario(file, name, description, d, tick, seed, sloPodWait, settings, autoscalerOptions,
        nodeGroups, workloads, jobs, gangJobs, strategies, currency);
  }

  /**
   * Model settings.
   *
   * @param preemptionDelay time from the scheduler choosing preemption victims to the preemptor binding
   *     (victims' graceful termination plus the next scheduling attempt)
   * @param metricsDelay age of the metrics the workload autoscaler reads (metrics pipeline lag)
   * @param provisioningJitter each new node's delay is {@code provisioningDelay ± uniform(jitter)}
   * @param bufferSyncInterval how often the buffer controller reconciles
   */
  public record Settings(
      Duration preemptionDelay,
      Duration metricsDelay,
      Duration provisioningJitter,
      Duration bufferSyncInterval) {}

  /**
   * A Deployment whose replicas the workload autoscaler sets.
   *
   * @param name Deployment name
   * @param namespace namespace
   * @param replicas initial replicas
   * @param priority pod priority
   * @param startupTime from binding to Ready (serving)
   * @param pod pod spec of the replicas
   * @param load arrival profile and per-replica capacity
   * @param autoscaling how replicas are decided
   */
  public record Workload(
      String name,
      String namespace,
      int replicas,
      int priority,
      Duration startupTime,
      PodSpec pod,
      Load load,
      Autoscaling autoscaling) {}

  /**
   * Load on a workload.
   *
   * @param profile arrival rate over time
   * @param perReplicaCapacity requests per second one Ready replica serves
   * @param noise relative standard deviation of per-tick random noise on the arrival rate (0 = none)
   */
  public record Load(LoadProfile profile, double perReplicaCapacity, double noise) {}

  /** How a workload's replicas are decided. */
  public sealed interface Autoscaling {}

  /** Fixed replicas. */
  public record Fixed() implements Autoscaling {}

  /**
   * HPA-style: per-metric targets, tolerance, stabilisation (the workload core implements the semantics).
   *
   * @param minReplicas lower bound
   * @param maxReplicas upper bound
   * @param metrics metric targets, in declaration order
   * @param syncPeriod HPA sync period
   * @param scaleDownStabilization scale-down stabilisation window
   * @param tolerance ratio tolerance
   */
  public record Hpa(
      int minReplicas,
      int maxReplicas,
      List<MetricTarget> metrics,
      Duration syncPeriod,
      Duration scaleDownStabilization,
      double tolerance) implements Autoscaling {
    public Hpa {
      metrics = List.copyOf(metrics);
    }
  }

  /**
   * KEDA-style: a queue trigger with activation for 0↔1, and the HPA half for 1..N.
   *
   * @param minReplicaCount lower bound (0 allows scale to zero)
   * @param maxReplicaCount upper bound
   * @param pollingInterval activation polling interval
   * @param cooldownPeriod time without activity before dropping to zero
   * @param metrics trigger targets (queue AverageValue per replica, or cpu Utilization)
   * @param activationThreshold activation threshold (strictly greater wakes)
   */
  public record Keda(
      int minReplicaCount,
      int maxReplicaCount,
      Duration pollingInterval,
      Duration cooldownPeriod,
      List<MetricTarget> metrics,
      double activationThreshold) implements Autoscaling {
    public Keda {
      metrics = List.copyOf(metrics);
    }
  }

  /** A metric the autoscaler reads: {@code cpu} (utilisation %, of requests) or {@code queue} (items). */
  public enum MetricName {
    /** CPU utilisation of the workload's Ready pods, percent of requests. */
    CPU,
    /** Queue backlog of the workload, total items. */
    QUEUE
  }

  /** A target on a metric: CPU as utilisation percent, queue as items per replica (AverageValue). */
  public record MetricTarget(MetricName metric, double target) {}

  /**
   * A batch job arriving on a schedule.
   *
   * @param name job name prefix
   * @param namespace namespace
   * @param priority pod priority
   * @param start first arrival
   * @param every interval between arrivals (zero = once)
   * @param parallelism pods per arrival
   * @param runTime how long each pod runs once Ready
   * @param startupTime from binding to running
   * @param pod pod spec
   */
  public record Job(
      String name,
      String namespace,
      int priority,
      Duration start,
      Duration every,
      int parallelism,
      Duration runTime,
      Duration startupTime,
      PodSpec pod) {}

  /**
   * A gang job (distributed training): each arrival creates {@code workers} pods in one PodGroup of the coscheduling
   * kind ({@code scheduling.x-k8s.io}, {@code minMember = workers}). The job starts work only when all of them are
   * bound; when the first worker has been bound for {@code rendezvousTimeout} and the rest are not, the attempt gives
   * up its pods and the job tries again after {@code retryAfter} (a rendezvous timing out). Once started it runs for
   * {@code runTime}; a worker lost while it runs fails the attempt the same way.
   *
   * @param name job name prefix (each arrival is {@code name-1}, {@code name-2}, ...)
   * @param namespace namespace
   * @param priority pod priority
   * @param start first arrival of a schedule
   * @param every interval between scheduled arrivals (zero = once); unused with {@code arrivals}
   * @param arrivals arrival rate in jobs per hour (Poisson arrivals drawn per tick), or null for the schedule
   * @param workers pods per job, all needed to start
   * @param runTime how long the job runs once all workers are bound
   * @param rendezvousTimeout how long bound workers wait for the others before the attempt is given up
   * @param retryAfter wait between a given-up attempt and the next one
   * @param pod pod spec of one worker
   */
  public record GangJob(
      String name,
      String namespace,
      int priority,
      Duration start,
      Duration every,
      LoadProfile arrivals,
      int workers,
      Duration runTime,
      Duration rendezvousTimeout,
      Duration retryAfter,
      PodSpec pod) {}

  /** A strategy to compare. */
  public sealed interface Strategy {
    /** Unique name shown in outputs. */
    String name();
  }

  /** No spare capacity: pods wait for scale-up. */
  public record NoBuffer(String name) implements Strategy {}

  /**
   * Balloon pods (the Cluster Autoscaler FAQ overprovisioning recipe): a Deployment of low-priority pause pods
   * that real pods preempt.
   *
   * @param name strategy name
   * @param replicas fixed balloon count
   * @param priority balloon priority (the FAQ's PriorityClass value)
   * @param namespace namespace of the balloon Deployment
   * @param pod pod spec of a balloon (sized like the workload it protects)
   */
  public record Balloon(String name, int replicas, int priority, String namespace, PodSpec pod) implements Strategy {}

  /** One or more CapacityBuffers. */
  public record Buffers(String name, List<BufferDef> buffers) implements Strategy {
    public Buffers {
      buffers = List.copyOf(buffers);
    }
  }

  /**
   * A CapacityBuffer: name, namespace, spec, optionally its {@code headroom.dev/active-schedule} annotation (null:
   * always active), further annotations (the gang ones), and the PodTemplate its {@code spec.podTemplateRef} names
   * (null for a buffer on a workload's {@code scalableRef}).
   */
  public record BufferDef(String name, String namespace, CapacityBufferSpec spec, String activeSchedule,
      Map<String, String> annotations, PodTemplate podTemplate, List<ScaleStep> scale) {
    public BufferDef {
      annotations = Map.copyOf(annotations);
      scale = scale == null ? List.of() : List.copyOf(scale);
    }

    /** A buffer without scale writes. */
    public BufferDef(String name, String namespace, CapacityBufferSpec spec, String activeSchedule,
        Map<String, String> annotations, PodTemplate podTemplate) {
      this(name, namespace, spec, activeSchedule, annotations, podTemplate, List.of());
    }

    /** A buffer on a workload, with an optional schedule. */
    public BufferDef(String name, String namespace, CapacityBufferSpec spec, String activeSchedule) {
      this(name, namespace, spec, activeSchedule, Map.of(), null);
    }

    /** A buffer without a schedule. */
    public BufferDef(String name, String namespace, CapacityBufferSpec spec) {
      this(name, namespace, spec, null);
    }
  }

  /**
   * One write of a buffer's {@code /scale} subresource (docs/capacitybuffer-scale.md) at {@code at} from the start: what
   * {@code kubectl scale capacitybuffer/NAME --replicas=N}, a cron job or KEDA does. It sets {@code spec.replicas}
   * (the subresource's {@code specReplicasPath}); the buffer controller re-translates the buffer as after any spec edit.
   */
  public record ScaleStep(java.time.Duration at, int replicas) {}

  /**
   * A warm pool of stopped instances for one node group: shorthand for the standby-capacity strategy (the simulation
   * gives the group {@code spec.standby} with {@code resumeDelay} and the price × {@code stoppedPriceFraction}, and
   * adds a standby CapacityBuffer of {@code size} chunks of one node each).
   *
   * @param name strategy name
   * @param nodeGroup group the pool belongs to
   * @param size stopped instances kept in the pool
   * @param stoppedPriceFraction fraction of the node price paid while stopped
   * @param resumeDelay time from resume to Ready
   */
  public record WarmPool(String name, String nodeGroup, int size, double stoppedPriceFraction, Duration resumeDelay)
      implements Strategy {}
}
