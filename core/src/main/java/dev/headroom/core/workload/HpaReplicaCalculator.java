package dev.headroom.core.workload;

import dev.headroom.core.resources.Quantities;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The upstream HPA's per-metric replica calculation (HPA mode): pod classification, utilisation and
 * averages in integer milli-units, tolerance on the ratio, and damping for missing and unready pods.
 * Counts use {@code Math.ceil} (never the seed's ceiling rule) and saturate at {@link Integer#MAX_VALUE}.
 */
public final class HpaReplicaCalculator {

  /** Upstream default CPU initialization period. */
  public static final Duration DEFAULT_CPU_INITIALIZATION_PERIOD = Duration.ofMinutes(5);
  /** Upstream default initial readiness delay. */
  public static final Duration DEFAULT_INITIAL_READINESS_DELAY = Duration.ofSeconds(30);

  private final Duration cpuInitializationPeriod;
  private final Duration initialReadinessDelay;
  /**
   * The facts of the last pod list a positional reading was over (an immutable list, keyed by its identity, the
   * resource and the container). One entry: a workload's list usually stays the same object for several
   * decisions; a second utilisation metric over the same list rebuilds it.
   */
  private volatile ListedPodFacts lastFacts;

  public HpaReplicaCalculator(Duration cpuInitializationPeriod, Duration initialReadinessDelay) {
    this.cpuInitializationPeriod = Objects.requireNonNull(cpuInitializationPeriod);
    this.initialReadinessDelay = Objects.requireNonNull(initialReadinessDelay);
  }

  /** A calculator with the upstream defaults (5 min, 30 s). */
  public static HpaReplicaCalculator defaults() {
    return new HpaReplicaCalculator(DEFAULT_CPU_INITIALIZATION_PERIOD, DEFAULT_INITIAL_READINESS_DELAY);
  }

  /**
   * The proposal of one metric.
   *
   * @param now the sync time (for the CPU initialization period)
   * @param metric the metric
   * @param specReplicas {@code spec.replicas} of the target (used by Resource, Pods and Value targets)
   * @param statusReplicas {@code status.replicas} (used by Object and External AverageValue targets)
   * @param pods the pods the target's selector matches
   * @param reading what the metric read returned; null counts as a failed read
   * @param tolerance the dead band
   */
  public MetricProposal propose(
      Instant now,
      HpaMetric metric,
      int specReplicas,
      int statusReplicas,
      List<PodInfo> pods,
      MetricReading reading,
      Tolerance tolerance) {
    String failReason = failReason(metric.source());
    if (reading == null) {
      return new MetricProposal.Invalid(metric.name(), failReason, "no reading for metric " + metric.name());
    }
    if (reading instanceof MetricReading.Failed f) {
      return new MetricProposal.Invalid(metric.name(), failReason, f.error());
    }
    try {
      return switch (metric.source()) {
        case RESOURCE, CONTAINER_RESOURCE -> {
          Map<String, PodSample> samples = podSamples(metric, reading);
          yield metric.kind() == TargetKind.UTILIZATION
              ? resourceUtilization(now, metric, specReplicas, pods, samples, tolerance)
              : plainAverage(now, metric, metric.resource(), specReplicas, pods, samples, tolerance);
        }
        case PODS -> plainAverage(now, metric, "", specReplicas, pods, podSamples(metric, reading), tolerance);
        case OBJECT, EXTERNAL -> {
          long usage = totalOf(metric, reading);
          yield metric.kind() == TargetKind.VALUE
              ? value(metric.name(), specReplicas, usage, metric.target(), pods, tolerance)
              : perPodTotal(metric.name(), statusReplicas, usage, metric.target(), tolerance);
        }
      };
    } catch (MetricError | PodInfo.MissingRequestException e) {
      return new MetricProposal.Invalid(metric.name(), failReason, e.getMessage());
    }
  }

  /** The condition reason of a failed metric of this source. */
  public static String failReason(MetricSource source) {
    return switch (source) {
      case RESOURCE -> HpaReasons.FAILED_GET_RESOURCE_METRIC;
      case CONTAINER_RESOURCE -> HpaReasons.FAILED_GET_CONTAINER_RESOURCE_METRIC;
      case PODS -> HpaReasons.FAILED_GET_PODS_METRIC;
      case OBJECT -> HpaReasons.FAILED_GET_OBJECT_METRIC;
      case EXTERNAL -> HpaReasons.FAILED_GET_EXTERNAL_METRIC;
    };
  }

  private static Map<String, PodSample> podSamples(HpaMetric metric, MetricReading reading) {
    if (reading instanceof MetricReading.PodSamples s) {
      return s.samples();
    }
    throw new MetricError("metric " + metric.name() + " (" + metric.source() + ") needs per-pod samples");
  }

  private static long totalOf(HpaMetric metric, MetricReading reading) {
    if (metric.source() == MetricSource.OBJECT && reading instanceof MetricReading.ObjectValue v) {
      return v.value();
    }
    if (metric.source() == MetricSource.EXTERNAL && reading instanceof MetricReading.ExternalValues v) {
      return v.total();
    }
    throw new MetricError("metric " + metric.name() + " (" + metric.source() + ") got a reading of the wrong kind");
  }

  // ---- Resource / ContainerResource utilisation -------------------------------------------------------------

  private MetricProposal resourceUtilization(
      Instant now, HpaMetric metric, int current, List<PodInfo> pods, Map<String, PodSample> samples, Tolerance tol) {
    if (pods.isEmpty()) {
      throw new MetricError(HpaReasons.MSG_NO_PODS);
    }
    if (samples instanceof PositionalSamples s) {
      ListedPodFacts facts = positional(pods, s, metric.resource(), metric.container());
      if (facts != null) {
        return positionalUtilization(now, metric, current, facts, s, tol);
      }
    }
    // Pods of one workload mostly request the same amount. When every pod does and every sample is of a
    // listed pod (pod names are unique in a namespace), the request sum is that amount times the number of
    // samples summed, and no per-pod map is needed; otherwise requests are looked up by pod name.
    long uniform = 0;
    boolean same = true;
    boolean first = true;
    int sampled = 0;
    for (PodInfo p : pods) {
      long request = p.request(metric.resource(), metric.container());
      if (first) {
        uniform = request;
        first = false;
      } else if (request != uniform) {
        same = false;
      }
      if (samples.containsKey(p.name())) {
        sampled++;
      }
    }
    long target = metric.target();
    Damping d;
    if (same && uniform >= 0 && sampled == samples.size()) {
      long each = uniform;
      d = damp(now, current, pods, samples, metric.resource(), tol,
          m -> utilizationRatio(m, each, target),
          (podName, ratio) -> ratio < 1.0 ? each * Math.max(100, target) / 100 : 0L);
    } else {
      Map<String, Long> requests = new HashMap<>(pods.size() * 4 / 3 + 1);
      for (PodInfo p : pods) {
        requests.put(p.name(), p.request(metric.resource(), metric.container()));
      }
      d = damp(now, current, pods, samples, metric.resource(), tol,
          m -> utilizationRatio(m, requests, target),
          (podName, ratio) -> ratio < 1.0 ? requests.get(podName) * Math.max(100, target) / 100 : 0L);
    }
    return new MetricProposal.Valid(metric.name(), d.replicas, d.reportedUsage);
  }

  /** As {@link #utilizationRatio(Metrics, Map, long)} when every pod requests {@code request} (all known). */
  private static Ratio utilizationRatio(Metrics metrics, long request, long target) {
    long[] total = new long[1];
    metrics.forEach((pod, value) -> total[0] = Quantities.add(total[0], value));
    return utilizationRatio(total[0], metrics.size(), request, target);
  }

  /** The ratio of {@code n} values summing to {@code total}, each of a pod requesting {@code request}. */
  private static Ratio utilizationRatio(long total, int n, long request, long target) {
    long requestsTotal = n > 0 && request > Long.MAX_VALUE / n ? Long.MAX_VALUE : request * n;
    return ratio(total, requestsTotal, target);
  }

  // ---- Resource utilisation of a positional uniform reading ---------------------------------------------------

  /**
   * The facts of {@code pods} when {@code samples} covers positions of exactly that list (the same immutable
   * object) and the positional rules apply (unique names, one request); else null.
   */
  ListedPodFacts positional(List<PodInfo> pods, PositionalSamples samples, String resource, String container) {
    if (samples.listed() != pods) {
      return null;
    }
    ListedPodFacts f = lastFacts;
    if (f == null || !f.of(pods, resource, container)) {
      f = ListedPodFacts.of(pods, resource, container, initialReadinessDelay);
      lastFacts = f;
    }
    return f.applicable ? f : null;
  }

  /**
   * The reference utilisation rules ({@link #resourceUtilization} with {@link #damp} and {@link #classify}) for a
   * reading in which every pod at a covered position reports one sample, over a list with unique names and one
   * request: a pod has a sample exactly when covered, every sample is of a listed pod, and every counted value
   * is the same, so classification only counts pods and the sums are repeated additions. Pods whose class cannot
   * change with time are counted from the list's {@link ListedPodFacts}; only warming pods are looked at.
   */
  private MetricProposal positionalUtilization(
      Instant now, HpaMetric metric, int current, ListedPodFacts facts, PositionalSamples samples, Tolerance tol) {
    long each = facts.each;
    int coveredEligible = samples.coveredAmong(facts.eligible);
    int missing = facts.eligibleCount - coveredEligible;
    int unready = facts.pending;
    int ready = coveredEligible;
    if (coveredEligible > 0 && "cpu".equals(metric.resource())) {
      Instant warmingSince = now.minus(cpuInitializationPeriod);
      long warmingSecond = warmingSince.getEpochSecond();
      PodSample sample = samples.sample();
      int nullReady = samples.coveredAmong(facts.nullReady);
      int settled = samples.coveredAmong(facts.settledUnready);
      int warmingUnready = 0;
      int[] timed = facts.timed;
      long[] seconds = facts.timedStartSeconds;
      for (int j = 0; j < timed.length; j++) {
        if (seconds[j] < warmingSecond) { // started before now − period: not warming, so settled
          continue;
        }
        int i = timed[j];
        if (!samples.covers(i)) {
          continue;
        }
        if (facts.settledUnready(i)) {
          settled--; // decided below instead
        }
        if (cpuUnready(warmingSince, facts.pods.get(i), sample)) {
          warmingUnready++;
        }
      }
      int cpuUnready = nullReady + settled + warmingUnready;
      unready += cpuUnready;
      ready -= cpuUnready;
    }
    // every covered pod is ignored, unready or ready, so the counted samples are the ready pods
    if (ready == 0) {
      throw new MetricError(HpaReasons.MSG_NO_METRICS_FOR_PODS);
    }
    long target = metric.target();
    long countedTotal = addTimes(0, samples.sample().value(), ready);
    Ratio first = utilizationRatio(countedTotal, ready, each, target);
    double r = first.ratio();
    boolean upWithUnready = unready > 0 && r > 1.0;
    if (!upWithUnready && missing == 0) {
      int n = tol.within(r) ? current : ceilReplicas(r * ready);
      return new MetricProposal.Valid(metric.name(), n, first.usage());
    }
    // damping: the counted samples, then the missing pods' assumed value, then zeros for the unready pods
    long total = countedTotal;
    int count = ready;
    if (missing > 0 && r != 1.0) {
      long fill = r < 1.0 ? each * Math.max(100, target) / 100 : 0L;
      total = addTimes(total, fill, missing);
      count += missing;
    }
    if (upWithUnready) {
      total = addTimes(total, 0L, unready);
      count += unready;
    }
    double r2 = utilizationRatio(total, count, each, target).ratio();
    Damping d = damped(current, r, r2, count, first.usage(), tol);
    return new MetricProposal.Valid(metric.name(), d.replicas, d.reportedUsage);
  }

  /** {@code k} saturating additions of {@code x} to {@code start}, in closed form where that is exact. */
  static long addTimes(long start, long x, int k) {
    if (x == 0 || k <= 0) {
      return start;
    }
    if (start >= 0 && x > 0) { // partial sums only grow, and stay at MAX_VALUE once there
      return (Long.MAX_VALUE - start) / x >= k ? start + x * k : Long.MAX_VALUE;
    }
    long s = start;
    for (int i = 0; i < k; i++) {
      s = Quantities.add(s, x);
    }
    return s;
  }

  /** Utilisation percent (truncated) over samples of known pods, then divided by the target. */
  private static Ratio utilizationRatio(Metrics metrics, Map<String, Long> requests, long target) {
    long[] totals = new long[2]; // metrics, requests
    metrics.forEach((pod, value) -> {
      Long request = requests.get(pod);
      if (request != null) { // else a sample for a pod the lister does not know
        totals[0] = Quantities.add(totals[0], value);
        totals[1] = Quantities.add(totals[1], request);
      }
    });
    return ratio(totals[0], totals[1], target);
  }

  private static Ratio ratio(long metricsTotal, long requestsTotal, long target) {
    if (requestsTotal == 0) {
      throw new MetricError(HpaReasons.MSG_NO_MATCHING_PODS);
    }
    long utilization = multiplyBy100(metricsTotal) / requestsTotal;
    return new Ratio((double) utilization / (double) target, utilization);
  }

  private static long multiplyBy100(long v) {
    return Math.abs(v) > Long.MAX_VALUE / 100 ? (v > 0 ? Long.MAX_VALUE : Long.MIN_VALUE) : v * 100;
  }

  // ---- Pods / Resource AverageValue -------------------------------------------------------------------------

  private MetricProposal plainAverage(
      Instant now,
      HpaMetric metric,
      String resource,
      int current,
      List<PodInfo> pods,
      Map<String, PodSample> samples,
      Tolerance tol) {
    if (pods.isEmpty()) {
      throw new MetricError(HpaReasons.MSG_NO_PODS);
    }
    long target = metric.target();
    Damping d =
        damp(
            now,
            current,
            pods,
            samples,
            resource,
            tol,
            m -> averageRatio(m, target),
            (podName, ratio) -> ratio < 1.0 ? target : 0L);
    return new MetricProposal.Valid(metric.name(), d.replicas, d.reportedUsage);
  }

  private static Ratio averageRatio(Metrics metrics, long target) {
    long[] total = new long[1];
    metrics.forEach((pod, value) -> total[0] = Quantities.add(total[0], value));
    long average = total[0] / metrics.size();
    return new Ratio((double) average / (double) target, average);
  }

  // ---- Object / External ------------------------------------------------------------------------------------

  /**
   * A Value target: {@code ratio = usage / target}. At a non-zero count: the current count inside the
   * tolerance, otherwise {@code ceil(ratio × running-and-ready pods)}. From zero: {@code ceil(ratio)} with no
   * tolerance.
   *
   * @throws IllegalStateException when the count is non-zero, outside the tolerance, and there are no pods
   */
  public static MetricProposal value(String name, int current, long usage, long target, List<PodInfo> pods, Tolerance tol) {
    double ratio = (double) usage / (double) target;
    if (current != 0) {
      if (tol.within(ratio)) {
        return new MetricProposal.Valid(name, current, usage);
      }
      if (pods.isEmpty()) {
        throw new MetricError("unable to calculate ready pods: " + HpaReasons.MSG_NO_PODS);
      }
      long ready = pods.stream().filter(PodInfo::runningAndReady).count();
      return new MetricProposal.Valid(name, ceilReplicas(ratio * ready), usage);
    }
    return new MetricProposal.Valid(name, ceilReplicas(ratio), usage);
  }

  /**
   * An Object or External AverageValue target: inside the tolerance (checked against
   * {@code usage / (target × statusReplicas)}) the status count, otherwise {@code ceil(usage / target)},
   * independent of the current count and of readiness. The reported usage is the per-replica average.
   */
  public static MetricProposal perPodTotal(String name, int statusReplicas, long usage, long target, Tolerance tol) {
    int replicas = statusReplicas;
    double ratio = (double) usage / ((double) target * (double) statusReplicas);
    if (!tol.within(ratio)) {
      replicas = ceilReplicas((double) usage / (double) target);
    }
    long average = statusReplicas == 0 ? usage : (long) Math.ceil((double) usage / (double) statusReplicas);
    return new MetricProposal.Valid(name, replicas, average);
  }

  // ---- Damping (shared) -------------------------------------------------------------------------------------

  private record Ratio(double ratio, long usage) {}

  private record Damping(int replicas, long reportedUsage) {}

  @FunctionalInterface
  private interface RatioFunction {
    Ratio apply(Metrics metrics);
  }

  /** The per-pod values a ratio is computed over, visited in a fixed order. */
  private interface Metrics {
    int size();

    void forEach(MetricVisitor visitor);
  }

  @FunctionalInterface
  private interface MetricVisitor {
    void accept(String pod, long value);
  }

  /** Values of a map, in its order. */
  private static Metrics of(Map<String, Long> values) {
    return new Metrics() {
      @Override
      public int size() {
        return values.size();
      }

      @Override
      public void forEach(MetricVisitor visitor) {
        values.forEach(visitor::accept);
      }
    };
  }

  /** The samples of the pods that are neither ignored nor unready, in sample order, without copying them. */
  private static Metrics counted(Map<String, PodSample> samples, Set<String> ignored, Set<String> unready) {
    boolean all = ignored.isEmpty() && unready.isEmpty();
    int size = 0;
    if (all) {
      size = samples.size();
    } else {
      for (String pod : samples.keySet()) {
        if (!ignored.contains(pod) && !unready.contains(pod)) {
          size++;
        }
      }
    }
    int n = size;
    return new Metrics() {
      @Override
      public int size() {
        return n;
      }

      @Override
      public void forEach(MetricVisitor visitor) {
        samples.forEach((pod, s) -> {
          if (all || (!ignored.contains(pod) && !unready.contains(pod))) {
            visitor.accept(pod, s.value());
          }
        });
      }
    };
  }

  @FunctionalInterface
  private interface MissingFill {
    long valueFor(String podName, double ratio);
  }

  private Damping damp(
      Instant now,
      int current,
      List<PodInfo> pods,
      Map<String, PodSample> samples,
      String resource,
      Tolerance tol,
      RatioFunction ratioOf,
      MissingFill fill) {
    Set<String> unready = new HashSet<>();
    Set<String> missing = new HashSet<>();
    Set<String> ignored = new HashSet<>();
    int readyPodCount = classify(now, pods, samples, resource, unready, missing, ignored);
    Metrics counted = counted(samples, ignored, unready);
    if (counted.size() == 0) {
      throw new MetricError(HpaReasons.MSG_NO_METRICS_FOR_PODS);
    }
    Ratio first = ratioOf.apply(counted);
    double r = first.ratio();
    boolean upWithUnready = !unready.isEmpty() && r > 1.0;
    if (!upWithUnready && missing.isEmpty()) {
      int n = tol.within(r) ? current : ceilReplicas(r * readyPodCount);
      return new Damping(n, first.usage());
    }
    // damping: the counted samples, then the missing and unready pods with their assumed values
    Map<String, Long> metrics = new LinkedHashMap<>();
    counted.forEach(metrics::put);
    if (!missing.isEmpty() && r != 1.0) {
      for (String pod : missing) {
        metrics.put(pod, fill.valueFor(pod, r));
      }
    }
    if (upWithUnready) {
      for (String pod : unready) {
        metrics.put(pod, 0L);
      }
    }
    double r2 = ratioOf.apply(of(metrics)).ratio();
    return damped(current, r, r2, metrics.size(), first.usage(), tol);
  }

  /**
   * The count after damping: {@code r} is the ratio over the counted samples, {@code r2} the ratio once the
   * missing and unready pods are added, {@code size} how many values {@code r2} is over.
   */
  private static Damping damped(int current, double r, double r2, int size, long usage, Tolerance tol) {
    if (tol.within(r2) || (r < 1.0 && r2 > 1.0) || (r > 1.0 && r2 < 1.0)) {
      return new Damping(current, usage);
    }
    int n = ceilReplicas(r2 * size);
    if ((r2 < 1.0 && n > current) || (r2 > 1.0 && n < current)) {
      return new Damping(current, usage);
    }
    return new Damping(n, usage);
  }

  /**
   * Sorts pods into ignored (terminating or Failed), unready (Pending; for cpu also not-yet-ready or
   * still-warming pods), missing (no sample) and ready; returns the ready count.
   */
  private int classify(
      Instant now,
      List<PodInfo> pods,
      Map<String, PodSample> samples,
      String resource,
      Set<String> unready,
      Set<String> missing,
      Set<String> ignored) {
    int ready = 0;
    Instant warmingSince = null; // pods started after this are still in the CPU initialization period
    for (PodInfo pod : pods) {
      if (pod.terminating() || pod.phase() == PodPhase.FAILED) {
        ignored.add(pod.name());
        continue;
      }
      if (pod.phase() == PodPhase.PENDING) {
        unready.add(pod.name());
        continue;
      }
      PodSample sample = samples.get(pod.name());
      if (sample == null) {
        missing.add(pod.name());
        continue;
      }
      if (warmingSince == null && "cpu".equals(resource)) {
        warmingSince = now.minus(cpuInitializationPeriod);
      }
      if ("cpu".equals(resource) && cpuUnready(warmingSince, pod, sample)) {
        unready.add(pod.name());
        continue;
      }
      ready++;
    }
    return ready;
  }

  /** {@code warmingSince} is {@code now − cpuInitializationPeriod}. */
  private boolean cpuUnready(Instant warmingSince, PodInfo pod, PodSample sample) {
    if (pod.ready() == null || pod.startTime() == null) {
      return true;
    }
    Instant transition = pod.readyTransition() == null ? pod.startTime() : pod.readyTransition();
    if (pod.startTime().isAfter(warmingSince)) { // start + period > now
      return !pod.ready() || sample.timestamp().isBefore(transition.plus(sample.window()));
    }
    return !pod.ready() && pod.startTime().plus(initialReadinessDelay).isAfter(transition);
  }

  /** {@code Math.ceil}, saturated to the int range. */
  static int ceilReplicas(double x) {
    double c = Math.ceil(x);
    if (Double.isNaN(c)) {
      return 0;
    }
    if (c >= Integer.MAX_VALUE) {
      return Integer.MAX_VALUE;
    }
    return c <= Integer.MIN_VALUE ? Integer.MIN_VALUE : (int) c;
  }

  /** A metric that cannot produce a proposal this round. */
  static final class MetricError extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    MetricError(String message) {
      super(message);
    }
  }
}
