package dev.headroom.controller.testing;

import dev.headroom.controller.BufferController;
import dev.headroom.controller.cache.ClusterCaches;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.manager.Manager;
import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.runtime.WorkQueue;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/** A started manager with its buffer controller, as {@code headroom run} wires them (tests). */
public record RunningController(Manager manager, BufferController controller) implements AutoCloseable {
  public WorkQueue<String> queue() {
    return controller.queue();
  }

  public ControllerMetrics metrics() {
    return controller.metrics();
  }

  public ClusterCaches caches() {
    return controller.caches();
  }

  public boolean dryRunFellBack() {
    return controller.dryRunFellBack();
  }

  public Optional<String> notReadyReason() {
    return manager.notReadyReason();
  }

  public Optional<String> notLiveReason() {
    return manager.notLiveReason();
  }

  public boolean isReady() {
    return manager.notReadyReason().isEmpty();
  }

  /** Leads and its worker runs. */
  public boolean isLeader() {
    return manager.isLeader() && controller.isRunning();
  }

  public int httpPort() {
    return manager.httpPort();
  }

  public CrdWait crdWait() {
    return manager.crdWait();
  }

  public int awaitTermination() throws InterruptedException {
    return manager.awaitTermination();
  }

  public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
    return manager.awaitTermination(timeout, unit);
  }

  @Override
  public void close() {
    manager.close();
  }
}
