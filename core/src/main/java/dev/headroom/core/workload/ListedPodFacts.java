package dev.headroom.core.workload;

import java.time.DateTimeException;
import java.time.Duration;
import java.time.Instant;
import java.util.BitSet;
import java.util.List;
import java.util.Map;

/**
 * What the utilisation rules need of an immutable pod list that does not depend on the moment of the decision
 * or on which pods a reading covers: whether names are unique, the one request every pod makes, and which pods
 * the classification can place without looking at them again. Built once per list (the calculator keeps the
 * last one, keyed by the list's identity), so a decision over the same list reads the pods only where time can
 * still change their class.
 *
 * <p>Per pod (position {@code i}): ignored (terminating or Failed), pending, or eligible; an eligible pod is
 * {@code nullReady} (no Ready condition or no start time: always unready for cpu), or timed. A timed pod is
 * warming while its start is after {@code now − cpuInitializationPeriod}, and then needs a look per decision;
 * once it is not, its class is fixed: {@code settledUnready} when it is not Ready and became not-Ready within
 * the initial readiness delay of its start, else ready.
 */
final class ListedPodFacts {

  final List<PodInfo> pods;
  final String resource;
  final String container;
  /** False when names repeat or requests differ (or are negative): the by-name path applies. */
  final boolean applicable;
  /** The request of every pod (when applicable). */
  final long each;
  final int pending;
  final int eligibleCount;
  final long[] eligible;
  final long[] nullReady;
  final long[] settledUnready;
  /** Positions of the timed pods, and their start times' epoch seconds ({@link Long#MAX_VALUE}: always look). */
  final int[] timed;
  final long[] timedStartSeconds;

  private ListedPodFacts(List<PodInfo> pods, String resource, String container, boolean applicable, long each,
      int pending, int eligibleCount, long[] eligible, long[] nullReady, long[] settledUnready, int[] timed,
      long[] timedStartSeconds) {
    this.pods = pods;
    this.resource = resource;
    this.container = container;
    this.applicable = applicable;
    this.each = each;
    this.pending = pending;
    this.eligibleCount = eligibleCount;
    this.eligible = eligible;
    this.nullReady = nullReady;
    this.settledUnready = settledUnready;
    this.timed = timed;
    this.timedStartSeconds = timedStartSeconds;
  }

  /** True when these facts are of {@code pods} (the same object) for this resource and container. */
  boolean of(List<PodInfo> list, String res, String cont) {
    return pods == list && resource.equals(res) && java.util.Objects.equals(container, cont);
  }

  /**
   * The facts of an immutable list.
   *
   * @throws PodInfo.MissingRequestException as {@link PodInfo#request} for the first pod in list order without a
   *     request, when names are unique (else the by-name path reports it)
   */
  static ListedPodFacts of(List<PodInfo> pods, String resource, String container, Duration initialReadinessDelay) {
    if (!uniqueNames(pods)) {
      return notApplicable(pods, resource, container);
    }
    int n = pods.size();
    // requests, in pod order (so a missing request fails at the same pod); a pod with the same container and
    // pod-level request objects as the previous one it was computed for requests the same
    long each = 0;
    List<ContainerRequests> lastContainers = null;
    Map<String, Long> lastPodRequests = null;
    for (int i = 0; i < n; i++) {
      PodInfo p = pods.get(i);
      if (i > 0 && p.containers() == lastContainers && p.podRequests() == lastPodRequests) {
        continue;
      }
      long request = p.request(resource, container);
      if (i == 0) {
        each = request;
      } else if (request != each) {
        return notApplicable(pods, resource, container);
      }
      lastContainers = p.containers();
      lastPodRequests = p.podRequests();
    }
    if (each < 0) {
      return notApplicable(pods, resource, container);
    }
    BitSet eligible = new BitSet(n);
    BitSet nullReady = new BitSet(n);
    BitSet settledUnready = new BitSet(n);
    int[] timed = new int[n];
    long[] seconds = new long[n];
    int timedCount = 0;
    int pending = 0;
    for (int i = 0; i < n; i++) {
      PodInfo pod = pods.get(i);
      if (pod.terminating() || pod.phase() == PodPhase.FAILED) {
        continue;
      }
      if (pod.phase() == PodPhase.PENDING) {
        pending++;
        continue;
      }
      eligible.set(i);
      if (pod.ready() == null || pod.startTime() == null) {
        nullReady.set(i);
        continue;
      }
      long second;
      try {
        Instant transition = pod.readyTransition() == null ? pod.startTime() : pod.readyTransition();
        if (!pod.ready() && pod.startTime().plus(initialReadinessDelay).isAfter(transition)) {
          settledUnready.set(i);
        }
        second = pod.startTime().getEpochSecond();
      } catch (DateTimeException e) { // beyond the time line: leave the pod to the per-decision rule
        settledUnready.clear(i);
        second = Long.MAX_VALUE;
      }
      timed[timedCount] = i;
      seconds[timedCount] = second;
      timedCount++;
    }
    return new ListedPodFacts(pods, resource, container, true, each, pending, eligible.cardinality(),
        eligible.toLongArray(), nullReady.toLongArray(), settledUnready.toLongArray(),
        java.util.Arrays.copyOf(timed, timedCount), java.util.Arrays.copyOf(seconds, timedCount));
  }

  private static ListedPodFacts notApplicable(List<PodInfo> pods, String resource, String container) {
    return new ListedPodFacts(pods, resource, container, false, 0, 0, 0, null, null, null, null, null);
  }

  /** True when the pod at {@code i} is settled-unready (once it is no longer warming). */
  boolean settledUnready(int i) {
    int w = i >>> 6;
    return w < settledUnready.length && (settledUnready[w] & (1L << i)) != 0;
  }

  /** True when no two pods share a name (open addressing over the names' cached hash codes). */
  static boolean uniqueNames(List<PodInfo> pods) {
    int n = pods.size();
    if (n > 1 << 28) {
      return false; // not worth a table; the by-name path applies
    }
    int bits = 32 - Integer.numberOfLeadingZeros(Math.max(4, n) * 2 - 1); // table of at least 2n slots
    int mask = (1 << bits) - 1;
    int[] slots = new int[mask + 1]; // position + 1; 0 is free
    int[] hashes = new int[mask + 1];
    for (int i = 0; i < n; i++) {
      String name = pods.get(i).name();
      int h = name.hashCode();
      int slot = (h * 0x9E3779B9) >>> (32 - bits);
      while (slots[slot] != 0) {
        if (hashes[slot] == h && pods.get(slots[slot] - 1).name().equals(name)) {
          return false;
        }
        slot = (slot + 1) & mask;
      }
      slots[slot] = i + 1;
      hashes[slot] = h;
    }
    return true;
  }
}
