package dev.headroom.controller;

import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.manager.Manager;
import dev.headroom.controller.runtime.Leadership;
import dev.headroom.core.buffer.BufferSettings;
import java.time.Duration;
import java.util.List;

/**
 * Settings of {@code headroom run} (spec §0.3 and the runtime flags).
 *
 * @param namespaces namespaces to watch; empty means all
 * @param controllerEnabled {@code --capacity-buffer-controller-enabled}
 * @param dryRunEnabled {@code --capacity-buffer-pod-dry-run-enabled}: server dry-run resolver, else defaulting
 * @param leaderElect {@code --leader-elect}
 * @param lease where the Lease lives and this replica's identity
 * @param timing lease timing
 * @param httpPort {@code --http-port} (0 picks a free port)
 * @param resyncPeriod buffer informer resync (5 minutes)
 * @param settings core's buffer settings
 * @param dryRunCacheTtl how long a dry-run result is reused for an identical template
 * @param concurrentReconciles {@code --concurrent-reconciles}: buffer-controller workers, each reconciling one namespace
 *     at a time (controller-runtime's {@code MaxConcurrentReconciles}; default 1)
 */
public record ControllerOptions(
    List<String> namespaces,
    boolean controllerEnabled,
    boolean dryRunEnabled,
    boolean leaderElect,
    Leadership.LeaseId lease,
    Leadership.Timing timing,
    int httpPort,
    Duration resyncPeriod,
    BufferSettings settings,
    Duration dryRunCacheTtl,
    int concurrentReconciles) {

  /** Default resync of the buffer informer (spec §6.2). */
  public static final Duration DEFAULT_RESYNC = Duration.ofMinutes(5);
  /** Default reuse time of a dry-run result. */
  public static final Duration DEFAULT_DRY_RUN_CACHE_TTL = Duration.ofMinutes(30);
  /** Default name of the Lease. */
  public static final String DEFAULT_LEASE_NAME = "headroom-buffer-controller";

  public ControllerOptions {
    namespaces = List.copyOf(namespaces);
    if (concurrentReconciles < 1) {
      throw new IllegalArgumentException(Flags.CONCURRENT_RECONCILES + ": must be at least 1, got " + concurrentReconciles);
    }
  }

  /** Options with one buffer-controller worker. */
  public ControllerOptions(List<String> namespaces, boolean controllerEnabled, boolean dryRunEnabled, boolean leaderElect,
      Leadership.LeaseId lease, Leadership.Timing timing, int httpPort, Duration resyncPeriod, BufferSettings settings,
      Duration dryRunCacheTtl) {
    this(namespaces, controllerEnabled, dryRunEnabled, leaderElect, lease, timing, httpPort, resyncPeriod, settings,
        dryRunCacheTtl, 1);
  }

  /** The manager's part of these options, with {@code metrics} saying how {@code /metrics} is served. */
  public Manager.Options manager(MetricsServer.Options metrics) {
    return new Manager.Options(leaderElect, lease, timing, httpPort, metrics);
  }
}
