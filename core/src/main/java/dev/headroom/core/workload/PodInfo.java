package dev.headroom.core.workload;

import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * What the HPA needs to know about one pod of the scaled workload.
 *
 * @param name the pod name; metric samples are keyed by it
 * @param phase the pod phase
 * @param terminating true when the pod has a deletion timestamp
 * @param ready the status of the Ready condition; {@code null} when the pod has no Ready condition
 * @param readyTransition when the Ready condition last changed; {@code null} when unknown
 * @param startTime when the pod started; {@code null} when not started
 * @param containers regular containers plus restartable init containers (sidecars), in spec order
 * @param podRequests pod-level requests (milli-units), empty when the pod has none
 */
public record PodInfo(
    String name,
    PodPhase phase,
    boolean terminating,
    Boolean ready,
    Instant readyTransition,
    Instant startTime,
    List<ContainerRequests> containers,
    Map<String, Long> podRequests) {

  public PodInfo {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(phase, "phase");
    containers = List.copyOf(containers);
    podRequests = Map.copyOf(podRequests);
  }

  /**
   * A Running pod that has been Ready since {@code readySince}, with one container named {@code main}
   * requesting {@code cpuMilli} millicores.
   */
  public static PodInfo running(String name, long cpuMilli, Instant startTime, Instant readySince) {
    return new PodInfo(
        name,
        PodPhase.RUNNING,
        false,
        true,
        readySince,
        startTime,
        List.of(new ContainerRequests("main", Map.of("cpu", cpuMilli))),
        Map.of());
  }

  /** A copy with another phase. */
  public PodInfo withPhase(PodPhase newPhase) {
    return new PodInfo(name, newPhase, terminating, ready, readyTransition, startTime, containers, podRequests);
  }

  /** A copy with a deletion timestamp. */
  public PodInfo terminatingCopy() {
    return new PodInfo(name, phase, true, ready, readyTransition, startTime, containers, podRequests);
  }

  /** A copy with another Ready condition. */
  public PodInfo withReady(Boolean newReady, Instant transition) {
    return new PodInfo(name, phase, terminating, newReady, transition, startTime, containers, podRequests);
  }

  /** A copy with another start time. */
  public PodInfo withStartTime(Instant newStart) {
    return new PodInfo(name, phase, terminating, ready, readyTransition, newStart, containers, podRequests);
  }

  /** A copy with other containers. */
  public PodInfo withContainers(List<ContainerRequests> newContainers) {
    return new PodInfo(name, phase, terminating, ready, readyTransition, startTime, newContainers, podRequests);
  }

  /** True when Running and Ready: the pods a Value metric multiplies by. */
  public boolean runningAndReady() {
    return phase == PodPhase.RUNNING && Boolean.TRUE.equals(ready);
  }

  /**
   * The pod's request for {@code resource} as the HPA sums it: pod-level requests win when present and no
   * container is named; otherwise the sum over the containers (only the named one when {@code container}
   * is non-null).
   *
   * @throws MissingRequestException when a counted container has no request for the resource
   */
  public long request(String resource, String container) {
    if (container == null && podRequests.containsKey(resource)) {
      return podRequests.get(resource);
    }
    long sum = 0;
    for (ContainerRequests c : containers) {
      if (container == null || container.equals(c.name())) {
        Long r = c.requests().get(resource);
        if (r == null) {
          throw new MissingRequestException(
              "missing request for " + resource + " in container " + c.name() + " of Pod " + name);
        }
        sum = Quantities.add(sum, r);
      }
    }
    return sum;
  }

  /** Reads a fabric8 pod: phase, deletion timestamp, Ready condition, start time and requests. */
  public static PodInfo from(Pod pod) {
    String name = pod.getMetadata() == null ? "" : Objects.toString(pod.getMetadata().getName(), "");
    boolean terminating = pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
    PodPhase phase = pod.getStatus() == null ? PodPhase.UNKNOWN : PodPhase.parse(pod.getStatus().getPhase());
    Boolean ready = null;
    Instant transition = null;
    Instant start = null;
    if (pod.getStatus() != null) {
      if (pod.getStatus().getConditions() != null) {
        for (PodCondition c : pod.getStatus().getConditions()) {
          if ("Ready".equals(c.getType())) {
            ready = "True".equals(c.getStatus());
            transition = parseTime(c.getLastTransitionTime());
          }
        }
      }
      start = parseTime(pod.getStatus().getStartTime());
    }
    List<ContainerRequests> containers = new ArrayList<>();
    Map<String, Long> podRequests = new TreeMap<>();
    if (pod.getSpec() != null) {
      for (Container c : nullSafe(pod.getSpec().getContainers())) {
        containers.add(new ContainerRequests(c.getName(), EffectiveRequests.requests(c)));
      }
      for (Container c : nullSafe(pod.getSpec().getInitContainers())) {
        if ("Always".equals(c.getRestartPolicy())) {
          containers.add(new ContainerRequests(c.getName(), EffectiveRequests.requests(c)));
        }
      }
      if (pod.getSpec().getResources() != null && pod.getSpec().getResources().getRequests() != null) {
        pod.getSpec().getResources().getRequests().forEach((k, v) -> podRequests.put(k, Quantities.milli(v)));
      }
    }
    return new PodInfo(name, phase, terminating, ready, transition, start, containers, podRequests);
  }

  private static Instant parseTime(String text) {
    return text == null || text.isEmpty() ? null : Instant.parse(text);
  }

  private static <T> List<T> nullSafe(List<T> list) {
    return list == null ? List.of() : list;
  }

  /** A counted container has no request for the metric's resource; the metric is invalid. */
  public static final class MissingRequestException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    MissingRequestException(String message) {
      super(message);
    }
  }
}
