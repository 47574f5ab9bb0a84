package dev.headroom.sim.cluster;

import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.scenario.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Gang jobs (distributed training) of one {@link Scenario.GangJob}: each arrival creates its workers, labelled with
 * the coscheduling plugin's {@code scheduling.x-k8s.io/pod-group} and declared as a PodGroup with
 * {@code minMember = workers} ({@link #podGroups}), which the autoscaler core scales for all-or-nothing. The
 * scheduler stand-in binds workers one by one (as the default scheduler does), so a job can be partly placed: its
 * bound workers hold their GPUs at the rendezvous, idle, until the last one is bound and the job starts. When the
 * first worker has been bound for {@code rendezvousTimeout} and the job has not started, the attempt gives up every
 * worker and the job tries again after {@code retryAfter}. A started job runs for {@code runTime}; a worker lost
 * while it runs fails the attempt (every worker is given up, then retried after {@code retryAfter}). A worker lost
 * before the start is recreated (the Job controller's behaviour).
 */
public final class GangJobController {

  private final SimCluster cluster;
  private final SimRandom names;
  private final SimRandom arrivalDraws;
  private final Scenario.GangJob spec;
  private final long endMillis;
  private final long tickMillis;
  private final GangLedger ledger;
  /** Jobs with live workers or a retry pending, by job name, in arrival order. */
  private final Map<String, Run> live = new LinkedHashMap<>();
  private final Map<String, Run> runOfPod = new LinkedHashMap<>();
  private int arrivals;

  /** One job: its attempts share the job's name and PodGroup. */
  private final class Run {
    final String job;
    final long arrivedAt;
    final List<SimPod> workers = new ArrayList<>();
    int attempt;
    int bound;
    long startedAt = -1;
    boolean everStarted;
    boolean failing;

    Run(String job, long arrivedAt) {
      this.job = job;
      this.arrivedAt = arrivedAt;
    }
  }

  /**
   * A controller for one gang job spec within a run that ends at {@code endMillis}.
   *
   * @param arrivalDraws the seeded stream of Poisson arrivals (used with {@code arrivals} only)
   * @param tickMillis the step at which Poisson arrivals are drawn
   */
  public GangJobController(SimCluster cluster, SimRandom names, SimRandom arrivalDraws, Scenario.GangJob spec,
      long endMillis, long tickMillis, GangLedger ledger) {
    this.cluster = cluster;
    this.names = names;
    this.arrivalDraws = arrivalDraws;
    this.spec = spec;
    this.endMillis = endMillis;
    this.tickMillis = tickMillis;
    this.ledger = ledger;
    cluster.onPodBound(spec.name(), this::bound);
    cluster.onPodGone(spec.name(), this::gone);
  }

  /** Schedules the arrivals: the fixed schedule, or one Poisson draw per tick from the arrival rate. */
  public void start() {
    long at = spec.start().toMillis();
    if (spec.arrivals() != null) {
      for (long t = at; t < endMillis; t += tickMillis) {
        double perHour = spec.arrivals().rateAt(t / 1000.0);
        long n = arrivalDraws.poisson(perHour * tickMillis / 3_600_000.0);
        for (long i = 0; i < n; i++) {
          cluster.events().at(t, Phase.CONTROLLER, this::arrive);
        }
      }
      return;
    }
    cluster.events().every(at, spec.every().toMillis(), endMillis, Phase.CONTROLLER, this::arrive);
  }

  /** The PodGroups of the jobs that have workers now ({@code minMember = workers}). */
  public List<PodGroups.Group> podGroups() {
    List<PodGroups.Group> out = new ArrayList<>(live.size());
    for (Run r : live.values()) {
      if (!r.workers.isEmpty()) {
        out.add(new PodGroups.Group(new PodGroups.Key(PodGroups.Source.COSCHEDULING, spec.namespace(), r.job),
            spec.workers()));
      }
    }
    return out;
  }

  /** Jobs that arrived so far. */
  public int arrivals() {
    return arrivals;
  }

  /**
   * At the end of the run: bound workers of jobs that have not started count as idle until {@code now}, and jobs
   * that never started count with the time they have waited so far.
   */
  public void close(long now) {
    for (Run r : live.values()) {
      if (r.startedAt < 0) {
        for (SimPod p : r.workers) {
          if (p.node() != null) {
            ledger.idle(gpus(p), now - p.boundAt());
          }
        }
        if (!r.everStarted) {
          ledger.notStarted(now - r.arrivedAt);
        }
      }
    }
  }

  private void arrive() {
    arrivals++;
    Run r = new Run(spec.name() + "-" + arrivals, cluster.clock().millis());
    r.attempt = 1;
    live.put(r.job, r);
    ledger.arrived(r.arrivedAt);
    createWorkers(r);
  }

  private void createWorkers(Run r) {
    r.bound = 0;
    for (int i = 0; i < spec.workers(); i++) {
      createWorker(r);
    }
  }

  private void createWorker(Run r) {
    Map<String, String> labels = new TreeMap<>(Map.of("job-name", r.job, "app", spec.name(),
        PodGroups.COSCHEDULING_LABEL, r.job));
    SimPod p = cluster.createPod(SimPod.Origin.JOB, spec.name(), spec.namespace(), labels, spec.pod(), spec.priority(),
        "Job", r.job, "job-" + spec.namespace() + "-" + r.job, cluster.freeSuffix(spec.namespace(), r.job, names));
    r.workers.add(p);
    runOfPod.put(p.uid(), r);
  }

  /** A worker was bound: the first one starts the rendezvous timer, the last one starts the job. */
  private void bound(SimPod p) {
    Run r = runOfPod.get(p.uid());
    if (r == null) {
      return;
    }
    r.bound++;
    long now = cluster.clock().millis();
    if (r.bound == 1) {
      int attempt = r.attempt;
      cluster.events().after(spec.rendezvousTimeout().toMillis(), Phase.CONTROLLER, () -> {
        if (r.attempt == attempt && r.startedAt < 0 && live.containsKey(r.job)) {
          ledger.timedOut();
          giveUp(r);
        }
      });
    }
    if (r.bound == spec.workers() && r.startedAt < 0) {
      r.startedAt = now;
      for (SimPod w : r.workers) {
        ledger.idle(gpus(w), now - w.boundAt());
      }
      if (!r.everStarted) {
        r.everStarted = true;
        ledger.started(now - r.arrivedAt);
      }
      int attempt = r.attempt;
      cluster.events().after(spec.runTime().toMillis(), Phase.LIFECYCLE, () -> {
        if (r.attempt == attempt && r.startedAt >= 0) {
          ledger.complete();
          live.remove(r.job);
          release(r);
        }
      });
    }
  }

  /** A worker disappeared: our own release, a loss before the start (recreated) or a loss of a running job. */
  private void gone(SimPod p) {
    Run r = runOfPod.remove(p.uid());
    if (r == null) {
      return;
    }
    r.workers.remove(p);
    if (r.failing) {
      return;
    }
    long now = cluster.clock().millis();
    if (r.startedAt >= 0) {
      r.failing = true;
      ledger.restarted();
      cluster.events().after(0, Phase.CONTROLLER, () -> giveUp(r));
      return;
    }
    if (p.node() != null) {
      r.bound--;
      ledger.idle(gpus(p), now - p.boundAt());
    }
    int attempt = r.attempt;
    cluster.events().after(0, Phase.CONTROLLER, () -> {
      if (r.attempt == attempt && live.containsKey(r.job) && r.workers.size() < spec.workers()) {
        createWorker(r);
      }
    });
  }

  /** Gives up the attempt's workers and creates the next attempt after {@code retryAfter}. */
  private void giveUp(Run r) {
    if (!live.containsKey(r.job)) {
      return;
    }
    long now = cluster.clock().millis();
    if (r.startedAt < 0) {
      for (SimPod w : r.workers) {
        if (w.node() != null) {
          ledger.idle(gpus(w), now - w.boundAt());
        }
      }
    }
    release(r);
    r.attempt++;
    r.startedAt = -1;
    r.failing = false;
    int attempt = r.attempt;
    cluster.events().after(spec.retryAfter().toMillis(), Phase.CONTROLLER, () -> {
      if (r.attempt == attempt && live.containsKey(r.job)) {
        createWorkers(r);
      }
    });
  }

  /** Deletes every worker of the job without recreating any. */
  private void release(Run r) {
    List<SimPod> workers = new ArrayList<>(r.workers);
    r.workers.clear();
    r.bound = 0;
    for (SimPod w : workers) {
      runOfPod.remove(w.uid());
      cluster.deletePod(w);
    }
  }

  private static double gpus(SimPod p) {
    Long milli = p.requests().get(GangLedger.GPU);
    return milli == null ? 0 : milli / 1000.0;
  }
}
