package dev.headroom.core.autoscaler;

import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Pod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Pod changes in the order they happened, read with a cursor: what a {@link ClusterView} hands out through
 * {@link ClusterView#podChangesSince}. Writers are the pod informer's event handler in cluster mode and the
 * simulated cluster in simulation; the reader is the autoscaler's {@link PodIndex}. A read returns each changed
 * pod once, at the position of its first change, in its latest state (or as deleted), and drops the entries
 * before its cursor (one reader). When too many entries pile up unread the log starts over and the reader falls
 * back to a full read. Writes and reads may come from different threads.
 */
public final class PodChangeLog {

  /** Beyond this many unread entries the log is dropped. */
  static final int MAX_ENTRIES = 1_000_000;

  private record Deleted(String uid) {}

  private final ArrayList<Object> entries = new ArrayList<>();
  private long first;

  /** A pod was created or changed; {@code pod} is its current state. */
  public synchronized void changed(Pod pod) {
    append(pod);
  }

  /** A pod was deleted. */
  public synchronized void deleted(Pod pod) {
    append(new Deleted(SchedulingCompiler.uidOf(pod)));
  }

  private void append(Object entry) {
    if (entries.size() >= MAX_ENTRIES) {
      first += entries.size();
      entries.clear();
    }
    entries.add(entry);
  }

  /** As {@link ClusterView#podChangesSince}. */
  public synchronized Optional<ClusterView.PodChanges> since(long cursor) {
    long end = first + entries.size();
    if (cursor < 0) {
      return Optional.of(new ClusterView.PodChanges(end, List.of(), List.of()));
    }
    if (cursor < first || cursor > end) {
      return Optional.empty();
    }
    int from = (int) (cursor - first);
    Map<String, Object> latest = new LinkedHashMap<>();
    for (Object e : entries.subList(from, entries.size())) {
      latest.put(e instanceof Deleted d ? d.uid() : SchedulingCompiler.uidOf((Pod) e), e);
    }
    entries.subList(0, from).clear();
    first = cursor;
    List<Pod> changed = new ArrayList<>();
    List<String> deleted = new ArrayList<>();
    for (Map.Entry<String, Object> e : latest.entrySet()) {
      if (e.getValue() instanceof Pod p) {
        changed.add(p);
      } else {
        deleted.add(e.getKey());
      }
    }
    return Optional.of(new ClusterView.PodChanges(end, changed, deleted));
  }
}
