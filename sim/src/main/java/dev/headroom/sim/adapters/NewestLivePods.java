package dev.headroom.sim.adapters;

import dev.headroom.core.buffer.NewestPods;
import dev.headroom.core.buffer.SelectorExpression;
import dev.headroom.sim.cluster.SimCluster;
import dev.headroom.sim.cluster.SimPod;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newest listed pod per (namespace, selector) of the simulated cluster, as the buffer controller's view
 * lists pods (live, without a deletion timestamp, in creation order). Each selector asked for gets a core
 * {@link NewestPods.Tracker}, filled once from {@link #listed} and then kept up to date from the cluster's pod
 * list changes, with the pod's creation sequence number as its position.
 */
public final class NewestLivePods {

  private record Key(String namespace, List<SelectorExpression.Requirement> selector) {}

  private static final class Watched {
    final String namespace;
    final SelectorExpression selector;
    final NewestPods.Tracker tracker = new NewestPods.Tracker();
    final Map<Map<String, String>, Boolean> matches = new HashMap<>();

    Watched(String namespace, SelectorExpression selector) {
      this.namespace = namespace;
      this.selector = selector;
    }

    boolean matches(Map<String, String> labels) {
      return matches.computeIfAbsent(labels, selector::matches);
    }
  }

  private final SimCluster cluster;
  private final Map<Key, Watched> watched = new HashMap<>();
  private final List<Watched> all = new ArrayList<>();

  /** Follows {@code cluster}'s pod list changes from now on. */
  public NewestLivePods(SimCluster cluster) {
    this.cluster = cluster;
    cluster.onPodListChange(this::changed);
  }

  /** What the view lists for {@code namespace} and {@code selector}: live pods without a deletion timestamp. */
  public static List<SimPod> listed(SimCluster cluster, String namespace, SelectorExpression selector) {
    List<SimPod> out = new ArrayList<>();
    for (SimPod p : cluster.pods(namespace, selector::matches)) {
      if (listed(p)) {
        out.add(p);
      }
    }
    return out;
  }

  private static boolean listed(SimPod p) {
    return p.state() != SimPod.State.GONE && p.pod().getMetadata().getDeletionTimestamp() == null;
  }

  /** {@link NewestPods#of} over the listed pods of {@code namespace} matching {@code selector}. */
  public Optional<Pod> newest(String namespace, SelectorExpression selector) {
    Key key = new Key(namespace, selector.requirements());
    Watched w = watched.get(key);
    if (w == null) {
      w = new Watched(namespace, selector);
      for (SimPod p : listed(cluster, namespace, selector)) {
        w.tracker.add(p.pod(), p.seq());
      }
      watched.put(key, w);
      all.add(w);
    }
    return w.tracker.newest();
  }

  private void changed(SimPod p) {
    for (Watched w : all) {
      if (w.namespace.equals(p.namespace()) && w.matches(p.pod().getMetadata().getLabels())) {
        if (listed(p)) {
          w.tracker.add(p.pod(), p.seq());
        } else {
          w.tracker.remove(p.seq());
        }
      }
    }
  }
}
