package dev.headroom.cli;

import ch.qos.logback.classic.Level;
import dev.headroom.controller.BufferController;
import dev.headroom.controller.ControllerOptions;
import dev.headroom.controller.Flags;
import dev.headroom.controller.autoscaling.AutoscalerRuntime;
import dev.headroom.controller.autoscaling.AutoscalerSettings;
import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.http.MetricsServer;
import dev.headroom.controller.manager.Manager;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.controller.provider.NodeGroupConfig;
import dev.headroom.controller.logging.LogFormat;
import dev.headroom.controller.logging.Logging;
import dev.headroom.controller.runtime.Leadership;
import dev.headroom.controller.runtime.Ticker;
import dev.headroom.core.buffer.BufferSettings;
import dev.headroom.core.nodegroup.GoDuration;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.UUID;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code headroom run}: the buffer controller in a cluster (informers, leader election, metrics). */
@Command(name = "run", mixinStandardHelpOptions = true, modelTransformer = AutoscalerFlags.RunFlags.class,
    description = "Run the CapacityBuffer controller against a cluster (in-cluster config unless --kubeconfig is given); "
        + "with --cloud-provider also the autoscaler, under the same leader election.")
public final class RunCommand implements Callable<Integer> {
  static final String SERVICE_ACCOUNT_NAMESPACE = "/var/run/secrets/kubernetes.io/serviceaccount/namespace";
  static final String DEFAULT_LEASE_NAMESPACE = "headroom-system";

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Option(names = Flags.KUBECONFIG, paramLabel = "PATH", description = "kubeconfig file; without it the in-cluster (or default) configuration is used")
  Path kubeconfig;

  @Option(names = Flags.NAMESPACE, paramLabel = "NS", description = "namespace to watch (repeatable); all namespaces when absent")
  List<String> namespaces = new ArrayList<>();

  @Option(names = Flags.CONTROLLER_ENABLED, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "run the buffer controller (default: ${DEFAULT-VALUE})")
  boolean controllerEnabled;

  @Option(names = Flags.INJECTION_ENABLED, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "inject virtual pods in the autoscaler (consumed by the autoscaler; default: ${DEFAULT-VALUE})")
  boolean injectionEnabled;

  @Option(names = Flags.DRY_RUN_ENABLED, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "resolve pod templates with a server dry-run create (falls back to defaulting if refused; default: ${DEFAULT-VALUE})")
  boolean dryRunEnabled;

  @Option(names = Flags.QUOTA_COUNT_PODS, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "honour pods and count/pods ResourceQuotas (default: ${DEFAULT-VALUE})")
  boolean countPods;

  @Option(names = Flags.LEADER_ELECT, arity = "0..1", defaultValue = "true", fallbackValue = "true",
      description = "elect a leader through a Lease; only the leader writes (default: ${DEFAULT-VALUE})")
  boolean leaderElect;

  @Option(names = {Flags.LEASE_NAMESPACE, Flags.LEASE_NAMESPACE_DEPRECATED}, paramLabel = "NS",
      description = "namespace of the Lease (default: the pod's namespace, else " + DEFAULT_LEASE_NAMESPACE + "; "
          + Flags.LEASE_NAMESPACE_DEPRECATED + " is a deprecated alias)")
  String leaseNamespace;

  @Option(names = {Flags.LEASE_NAME, Flags.LEASE_NAME_DEPRECATED}, paramLabel = "NAME", defaultValue = ControllerOptions.DEFAULT_LEASE_NAME,
      description = "name of the Lease (default: ${DEFAULT-VALUE}; " + Flags.LEASE_NAME_DEPRECATED + " is a deprecated alias)")
  String leaseName;

  @Option(names = Flags.IDENTITY, paramLabel = "ID", description = "this replica's identity in the Lease (default: $HOSTNAME plus a random suffix)")
  String identity;

  @Option(names = Flags.HTTP_PORT, paramLabel = "PORT", defaultValue = "8080", description = "port of /healthz, /readyz and /metrics (default: ${DEFAULT-VALUE})")
  int httpPort;

  @Option(names = Flags.METRICS_SECURE, arity = "0..1", defaultValue = "false", fallbackValue = "true",
      description = "serve /metrics over HTTPS on " + Flags.METRICS_PORT + ", each scrape authenticated (TokenReview) and authorized "
          + "(SubjectAccessReview: get on the non-resource URL /metrics) through the API server; false serves it in plain HTTP on "
          + Flags.HTTP_PORT + " for local use (default: ${DEFAULT-VALUE}; the manifests in deploy/ and the Helm chart set true)")
  boolean metricsSecure;

  @Option(names = Flags.METRICS_PORT, paramLabel = "PORT", defaultValue = "8443", description = "HTTPS port of /metrics with " + Flags.METRICS_SECURE + " (default: ${DEFAULT-VALUE})")
  int metricsPort;

  @Option(names = Flags.METRICS_CERT_FILE, paramLabel = "PATH", description = "PEM certificate of the HTTPS /metrics (with " + Flags.METRICS_KEY_FILE + "; default: a self-signed one made at start)")
  Path metricsCertFile;

  @Option(names = Flags.METRICS_KEY_FILE, paramLabel = "PATH", description = "PEM private key of " + Flags.METRICS_CERT_FILE)
  Path metricsKeyFile;

  @Option(names = Flags.LOG_FORMAT, paramLabel = "json|text", defaultValue = "json", description = "log lines as JSON (with a level field) or text for terminals (default: ${DEFAULT-VALUE})")
  String logFormat;

  @Option(names = Flags.LOG_LEVEL, paramLabel = "LEVEL", defaultValue = "INFO", description = "TRACE, DEBUG, INFO, WARN or ERROR, any case (default: ${DEFAULT-VALUE})")
  String logLevel;

  @Option(names = Flags.RESYNC_PERIOD, paramLabel = "DURATION", defaultValue = "5m", description = "resync period of the buffer informer, e.g. 5m, 30s (default: ${DEFAULT-VALUE})")
  String resyncPeriod;

  @Option(names = Flags.CONCURRENT_RECONCILES, paramLabel = "N", defaultValue = "1",
      description = "buffer-controller workers reconciling namespaces concurrently, one namespace per worker at a time (default: ${DEFAULT-VALUE})")
  int concurrentReconciles;

  @CommandLine.Mixin AutoscalerFlags autoscalerFlags = new AutoscalerFlags();

  @Override
  public Integer call() throws Exception {
    ControllerOptions options;
    LogFormat format;
    AutoscalerSettings autoscaling = null;
    Level level;
    try {
      try {
        format = LogFormat.parse(logFormat);
      } catch (IllegalArgumentException e) {
        throw new IllegalArgumentException(Flags.LOG_FORMAT + ": " + e.getMessage());
      }
      level = logLevel(logLevel);
      options = options();
      autoscalerFlags.validate();
      if (autoscalerFlags.enabled()) {
        autoscaling = autoscalerFlags.settings(injectionEnabled, options.lease().namespace());
      }
    } catch (IllegalArgumentException e) {
      throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
    }
    Logging.configure(format, level);
    Config config;
    try {
      config = kubeconfig == null ? Config.autoConfigure(null) : Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8));
    } catch (IOException e) {
      spec.commandLine().getErr().println(kubeconfig + ": cannot read the kubeconfig: " + e.getMessage());
      return 1;
    } catch (RuntimeException e) {
      spec.commandLine().getErr().println((kubeconfig == null ? "kubeconfig" : kubeconfig.toString()) + ": invalid configuration: " + e.getMessage());
      return 1;
    }
    ApiHealth health = new ApiHealth(ApiHealth.userOf(config));
    try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).withHttpClientBuilderConsumer(health::install).build();
        Manager manager = new Manager(client, options.manager(metricsServing()), health, CrdWait.Backoff.DEFAULT)) {
      if (autoscaling != null) {
        // first, so that the buffer controller's namespaced readers share the autoscaler's cluster-wide informers
        AutoscalerRuntime.registerInformers(manager.cache());
      }
      if (options.controllerEnabled()) {
        new BufferController(manager, options, Clock.systemUTC(), Ticker.SYSTEM);
      } else {
        org.slf4j.LoggerFactory.getLogger(RunCommand.class).info("the buffer controller is disabled ({}=false)", Flags.CONTROLLER_ENABLED);
      }
      if (autoscaling != null) {
        try {
          AutoscalerRuntime.create(manager, autoscaling, Clock.systemUTC(), options.lease().identity());
        } catch (IllegalArgumentException | NodeGroupConfig.InvalidNodeGroupsException e) {
          spec.commandLine().getErr().println(e.getMessage());
          return 1;
        }
      }
      Thread hook = new Thread(manager::close, "headroom-shutdown");
      Runtime.getRuntime().addShutdownHook(hook);
      try {
        manager.start();
      } catch (IOException e) {
        spec.commandLine().getErr().println(e.getMessage());
        Runtime.getRuntime().removeShutdownHook(hook);
        return 1;
      }
      int code = manager.awaitTermination();
      if (code != 0) {
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
          // already shutting down
        }
      }
      return code;
    }
  }

  /** How {@code /metrics} is served, from the metrics flags. */
  MetricsServer.Options metricsServing() {
    return new MetricsServer.Options(metricsSecure, metricsPort, metricsCertFile, metricsKeyFile);
  }

  /** The controller options the flags describe; an {@link IllegalArgumentException} names the bad flag. */
  ControllerOptions options() {
    if (httpPort < 0 || httpPort > 65535) {
      throw new IllegalArgumentException(Flags.HTTP_PORT + ": not a port: " + httpPort);
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new IllegalArgumentException(Flags.METRICS_PORT + ": not a port: " + metricsPort);
    }
    if ((metricsCertFile == null) != (metricsKeyFile == null)) {
      throw new IllegalArgumentException(Flags.METRICS_CERT_FILE + " and " + Flags.METRICS_KEY_FILE + " go together (neither: a self-signed certificate)");
    }
    String ns = leaseNamespace != null ? leaseNamespace : podNamespace();
    String id = identity != null ? identity
        : (System.getenv().getOrDefault("HOSTNAME", "headroom") + "_" + UUID.randomUUID().toString().substring(0, 8));
    return new ControllerOptions(namespaces, controllerEnabled, dryRunEnabled, leaderElect,
        new Leadership.LeaseId(ns, leaseName, id), Leadership.Timing.DEFAULT, httpPort,
        parseDuration(Flags.RESYNC_PERIOD, resyncPeriod), new BufferSettings(countPods, autoscalerFlags.standbyCapacity()), ControllerOptions.DEFAULT_DRY_RUN_CACHE_TTL,
        concurrentReconciles);
  }

  private static String podNamespace() {
    try {
      Path p = Path.of(SERVICE_ACCOUNT_NAMESPACE);
      if (Files.isReadable(p)) {
        return Files.readString(p, StandardCharsets.UTF_8).trim();
      }
    } catch (IOException ignored) {
      // fall through to the default
    }
    return DEFAULT_LEASE_NAMESPACE;
  }

  private static final List<String> LEVELS = List.of("TRACE", "DEBUG", "INFO", "WARN", "ERROR");

  /** The logback level {@code --log-level} names. */
  static Level logLevel(String text) {
    String upper = text.trim().toUpperCase(Locale.ROOT);
    if (!LEVELS.contains(upper)) {
      throw new IllegalArgumentException(Flags.LOG_LEVEL + ": unknown level \"" + text + "\" (use " + String.join(", ", LEVELS) + ")");
    }
    return Level.toLevel(upper);
  }

  /** A positive Go duration ({@code 500ms}, {@code 30s}, {@code 5m}, {@code 1h30m}, {@code 1d}), as every duration flag. */
  static Duration parseDuration(String flag, String text) {
    Duration d;
    try {
      d = GoDuration.parse(text.trim());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(flag + ": expected a positive duration such as 30s or 5m, got \"" + text + "\"");
    }
    if (d.isZero()) {
      throw new IllegalArgumentException(flag + ": expected a positive duration such as 30s or 5m, got \"" + text + "\"");
    }
    return d;
  }
}
