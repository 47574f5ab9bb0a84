package dev.headroom.controller.autoscaling;

import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.PodChangeLog;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import java.util.Optional;

/**
 * The pod informer's events written to core's {@link PodChangeLog}, which the autoscaler reads with a cursor
 * ({@link ClusterView#podChangesSince}), so each loop updates its pod index with what changed instead of
 * reading every pod.
 */
public final class PodChangeFeed implements ResourceEventHandler<Pod> {

  private final PodChangeLog log = new PodChangeLog();

  @Override
  public void onAdd(Pod pod) {
    log.changed(pod);
  }

  @Override
  public void onUpdate(Pod oldPod, Pod newPod) {
    log.changed(newPod);
  }

  @Override
  public void onDelete(Pod pod, boolean deletedFinalStateUnknown) {
    log.deleted(pod);
  }

  /** As {@link ClusterView#podChangesSince}. */
  public Optional<ClusterView.PodChanges> since(long cursor) {
    return log.since(cursor);
  }
}
