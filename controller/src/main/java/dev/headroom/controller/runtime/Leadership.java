package dev.headroom.controller.runtime;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderCallbacks;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElectionConfig;
import io.fabric8.kubernetes.client.extended.leaderelection.LeaderElector;
import io.fabric8.kubernetes.client.extended.leaderelection.resourcelock.LeaseLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs {@code onStartLeading} once this replica holds the lease and {@code onStopLeading} when it loses or gives it up.
 * Without leader election the callbacks run at {@link #start} and {@link #stop}. {@link #stop} releases the lease so
 * another replica takes over after one retry period rather than after the lease expires.
 */
public final class Leadership implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(Leadership.class);

  /** Timing of the Lease-based election (client-go defaults: 15 s lease, 10 s renew deadline, 2 s retry). */
  public record Timing(Duration leaseDuration, Duration renewDeadline, Duration retryPeriod) {
    public static final Timing DEFAULT = new Timing(Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(2));
  }

  /** Where the lease lives and who we are. */
  public record LeaseId(String namespace, String name, String identity) {}

  /** What to run on transitions. */
  public interface Callbacks {
    void onStartLeading();

    /** Called when leadership ends; {@code released} is true when we gave it up through {@link #stop}. */
    void onStopLeading(boolean released);

    default void onNewLeader(String identity) {}
  }

  private final KubernetesClient client;
  private final boolean enabled;
  private final LeaseId lease;
  private final Timing timing;
  private final Callbacks callbacks;
  private final AtomicBoolean leading = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private ExecutorService executor;
  private CompletableFuture<?> election;

  public Leadership(KubernetesClient client, boolean enabled, LeaseId lease, Timing timing, Callbacks callbacks) {
    this.client = client;
    this.enabled = enabled;
    this.lease = lease;
    this.timing = timing;
    this.callbacks = callbacks;
  }

  /** Begins campaigning (or leads at once when election is disabled). */
  public synchronized void start() {
    if (!enabled) {
      leading.set(true);
      callbacks.onStartLeading();
      return;
    }
    executor = Executors.newSingleThreadExecutor(r -> {
      Thread t = new Thread(r, "headroom-leader-election");
      t.setDaemon(true);
      return t;
    });
    LeaderElectionConfig config = new LeaderElectionConfig(
        new LeaseLock(lease.namespace(), lease.name(), lease.identity()),
        timing.leaseDuration(), timing.renewDeadline(), timing.retryPeriod(),
        new LeaderCallbacks(this::started, this::stopped, this::newLeader),
        true, lease.name());
    LOG.info("campaigning for lease {}/{} as {}", lease.namespace(), lease.name(), lease.identity());
    election = new LeaderElector(client, config, executor).start();
  }

  private void started() {
    LOG.info("became leader ({})", lease.identity());
    leading.set(true);
    callbacks.onStartLeading();
  }

  private void stopped() {
    if (leading.getAndSet(false)) {
      LOG.info("stopped leading ({})", lease.identity());
      callbacks.onStopLeading(stopping.get());
    }
  }

  private void newLeader(String identity) {
    LOG.info("current leader: {}", identity);
    callbacks.onNewLeader(identity);
  }

  public boolean isLeader() {
    return leading.get();
  }

  /** Stops campaigning and releases the lease if held; calls {@code onStopLeading(true)} if we were leading. */
  public synchronized void stop() {
    stopping.set(true);
    if (!enabled) {
      if (leading.getAndSet(false)) {
        callbacks.onStopLeading(true);
      }
      return;
    }
    if (election != null) {
      // releaseOnCancel: fabric8 shortens the lease to one second, so a standby takes over at its next retry
      election.cancel(true);
      election = null;
    }
    stopped();
    if (executor != null) {
      executor.shutdown();
      try {
        executor.awaitTermination(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      executor = null;
    }
  }

  @Override
  public void close() {
    stop();
  }
}
