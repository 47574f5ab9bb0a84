package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.scheduling.SchedulingCompiler;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The pod informer's events as a log the autoscaler reads with a cursor ({@link ClusterView#podChangesSince}),
 * so each loop updates its pod index with what changed instead of reading every pod. Handlers run on the
 * informer's thread, reads on the autoscaler's; both are synchronised. Entries before the cursor a reader
 * last asked from are dropped (one reader); when too many pile up unread the log starts over and the reader
 * falls back to a full read.
 */
public final class PodChangeFeed implements ResourceEventHandler<Pod> {

  /** Beyond this many unread entries the log is dropped. */
  static final int MAX_ENTRIES = 1_000_000;

  private record Deleted(String uid) {}

  private final ArrayList<Object> entries = new ArrayList<>();
  private long first;

  @Override
  public synchronized void onAdd(Pod pod) {
    append(pod);
  }

  @Override
  public synchronized void onUpdate(Pod oldPod, Pod newPod) {
    append(newPod);
  }

  @Override
  public synchronized void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
    append(new Deleted(SchedulingCompiler.uidOf(pod)));
  }

  private void append(Object entry) {
    if (entries.size() >= MAX_ENTRIES) {
      first += entries.size();
      entries.clear();
    }
    entries.add(entry);
  }

  /** As {@link ClusterView#podChangesSince}: the latest state of each pod changed after {@code cursor}. */
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
      String uid = e instanceof Deleted d ? d.uid() : SchedulingCompiler.uidOf((Pod) e);
      latest.remove(uid);
      latest.put(uid, e);
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
