package dev.headroom.sim.cluster;

import dev.headroom.sim.engine.EventQueue.Phase;
import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.scenario.Scenario;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Batch Jobs arriving on a schedule: each arrival creates a Job whose {@code parallelism} pods run for
 * {@code runTime} once Ready and then complete. A pod lost before completing (evicted) is recreated.
 */
public final class JobController {

  private final SimCluster cluster;
  private final SimRandom names;
  private final Scenario.Job spec;
  private final long endMillis;
  private final Set<String> completed = new HashSet<>();
  private final Map<String, String> jobOfPod = new HashMap<>();
  private int arrivals;

  /** A controller for one job spec within a run that ends at {@code endMillis}. */
  public JobController(SimCluster cluster, SimRandom names, Scenario.Job spec, long endMillis) {
    this.cluster = cluster;
    this.names = names;
    this.spec = spec;
    this.endMillis = endMillis;
    cluster.onPodGone(spec.name(), p -> {
      String job = jobOfPod.remove(p.uid());
      if (job != null && !completed.remove(p.uid())) {
        cluster.events().after(0, Phase.CONTROLLER, () -> createPod(job));
      }
    });
    cluster.onPodReady(spec.name(), this::running);
  }

  /** Schedules the arrivals. */
  public void start() {
    cluster.events().every(spec.start().toMillis(), spec.every().toMillis(), endMillis, Phase.CONTROLLER, this::arrive);
  }

  /** Jobs started so far. */
  public int arrivals() {
    return arrivals;
  }

  private void arrive() {
    arrivals++;
    String job = spec.name() + "-" + arrivals;
    for (int i = 0; i < spec.parallelism(); i++) {
      createPod(job);
    }
  }

  private void createPod(String job) {
    Map<String, String> labels = new TreeMap<>(Map.of("job-name", job, "app", spec.name()));
    SimPod p = cluster.createPod(SimPod.Origin.JOB, spec.name(), spec.namespace(), labels, spec.pod(), spec.priority(),
        "Job", job, "job-" + spec.namespace() + "-" + job, cluster.freeSuffix(spec.namespace(), job, names));
    jobOfPod.put(p.uid(), job);
  }

  /** Called when one of this controller's pods became Ready: it completes after the run time. */
  private void running(SimPod p) {
    cluster.events().after(spec.runTime().toMillis(), Phase.LIFECYCLE, () -> {
      if (p.state() == SimPod.State.RUNNING) {
        completed.add(p.uid());
        cluster.deletePod(p);
      }
    });
  }
}
