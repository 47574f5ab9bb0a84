package dev.headroom.core.autoscaler;

import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Hand-written test double of the {@link SchedulingSimulation} port: cpu/memory/pods fit, nodeSelector and
 * NoSchedule taints only, first fit in node insertion order, fork by copying. Enough to drive iteration tests
 * without the real scheduling package.
 */
final class FakeSimulation implements SchedulingSimulation {

  private LinkedHashMap<String, Node> nodes = new LinkedHashMap<>();
  private LinkedHashMap<String, List<Pod>> pods = new LinkedHashMap<>();
  private final Deque<Object[]> forks = new ArrayDeque<>();

  @Override
  public void addNode(Node node) {
    nodes.put(node.getMetadata().getName(), node);
    pods.put(node.getMetadata().getName(), new ArrayList<>());
  }

  @Override
  public void removeNode(String nodeName) {
    nodes.remove(nodeName);
    pods.remove(nodeName);
  }

  @Override
  public void addPod(Pod pod, String nodeName) {
    pods.get(nodeName).add(pod);
  }

  @Override
  public void removePod(Pod pod) {
    for (List<Pod> l : pods.values()) {
      l.removeIf(p -> p.getMetadata().getUid().equals(pod.getMetadata().getUid()));
    }
  }

  @Override
  public List<Pod> podsOn(String nodeName) {
    return List.copyOf(pods.getOrDefault(nodeName, List.of()));
  }

  @Override
  public Optional<String> schedule(Pod pod, Predicate<String> acceptable) {
    for (Node n : nodes.values()) {
      String name = n.getMetadata().getName();
      if (acceptable.test(name) && check(pod, n, pods.get(name)).isEmpty()) {
        pods.get(name).add(pod);
        return Optional.of(name);
      }
    }
    return Optional.empty();
  }

  @Override
  public void fork() {
    LinkedHashMap<String, List<Pod>> copy = new LinkedHashMap<>();
    pods.forEach((k, v) -> copy.put(k, new ArrayList<>(v)));
    forks.push(new Object[] {new LinkedHashMap<>(nodes), copy});
  }

  @Override
  @SuppressWarnings("unchecked")
  public void revert() {
    Object[] f = forks.pop();
    nodes = (LinkedHashMap<String, Node>) f[0];
    pods = (LinkedHashMap<String, List<Pod>>) f[1];
  }

  @Override
  public void commit() {
    forks.pop();
  }

  @Override
  public Optional<String> checkOnTemplate(Pod pod, Node template) {
    return check(pod, template, List.of());
  }

  @Override
  public boolean fitsEmptyNode(Pod pod, Node node) {
    return check(pod, node, List.of()).isEmpty();
  }

  @Override
  public Estimate estimate(List<Pod> candidates, Node template, String prefix, int maxNodes) {
    List<List<Pod>> bins = new ArrayList<>();
    List<Pod> placed = new ArrayList<>();
    for (Pod p : candidates) {
      boolean done = false;
      for (List<Pod> b : bins) {
        if (check(p, template, b).isEmpty()) {
          b.add(p);
          done = true;
          break;
        }
      }
      if (!done && bins.size() < maxNodes) {
        List<Pod> b = new ArrayList<>();
        if (check(p, template, b).isEmpty()) {
          b.add(p);
          bins.add(b);
          done = true;
        }
      }
      if (done) {
        placed.add(p);
      }
    }
    return new Estimate(bins.size(), placed);
  }

  static Optional<String> check(Pod pod, Node node, List<Pod> on) {
    Map<String, String> sel = pod.getSpec().getNodeSelector();
    Map<String, String> labels = node.getMetadata().getLabels() == null ? Map.of() : node.getMetadata().getLabels();
    if (sel != null) {
      for (Map.Entry<String, String> e : sel.entrySet()) {
        if (!e.getValue().equals(labels.get(e.getKey()))) {
          return Optional.of("node(s) didn't match Pod's node affinity/selector");
        }
      }
    }
    if (node.getSpec() != null && node.getSpec().getTaints() != null) {
      for (Taint t : node.getSpec().getTaints()) {
        if (t.getEffect().equals("PreferNoSchedule")) {
          continue;
        }
        boolean tolerated = false;
        for (Toleration tol : pod.getSpec().getTolerations() == null ? List.<Toleration>of() : pod.getSpec().getTolerations()) {
          if (t.getKey().equals(tol.getKey()) || (tol.getKey() == null && "Exists".equals(tol.getOperator()))) {
            tolerated = true;
          }
        }
        if (!tolerated) {
          return Optional.of("node(s) had untolerated taint {" + t.getKey() + ": " + t.getValue() + "}");
        }
      }
    }
    Map<String, Quantity> alloc = node.getStatus().getAllocatable();
    if (on.size() + 1 > Quantities.milli(alloc.getOrDefault("pods", new Quantity("110"))) / 1000) {
      return Optional.of("Too many pods");
    }
    Map<String, Long> req = EffectiveRequests.of(pod.getSpec());
    for (Map.Entry<String, Long> r : req.entrySet()) {
      if (r.getValue() <= 0) {
        continue;
      }
      long used = 0;
      for (Pod p : on) {
        used += EffectiveRequests.of(p.getSpec()).getOrDefault(r.getKey(), 0L);
      }
      Quantity a = alloc.get(r.getKey());
      long av = a == null ? 0 : Quantities.milli(a);
      if (r.getValue() > av - used) {
        return Optional.of("Insufficient " + r.getKey());
      }
    }
    return Optional.empty();
  }
}
