package dev.headroom.controller;

/** Flag names of {@code headroom run}, defined once (upstream names where one exists). */
public final class Flags {
  public static final String KUBECONFIG = "--kubeconfig";
  public static final String NAMESPACE = "--namespace";
  public static final String CONTROLLER_ENABLED = "--capacity-buffer-controller-enabled";
  public static final String INJECTION_ENABLED = "--capacity-buffer-pod-injection-enabled";
  public static final String DRY_RUN_ENABLED = "--capacity-buffer-pod-dry-run-enabled";
  public static final String QUOTA_COUNT_PODS = "--capacity-buffer-quota-count-pods";
  public static final String LEADER_ELECT = "--leader-elect";
  public static final String LEASE_NAMESPACE = "--leader-elect-resource-namespace";
  public static final String LEASE_NAME = "--leader-elect-resource-name";
  /** Deprecated alias of {@link #LEASE_NAMESPACE} (the name before the upstream one was adopted). */
  public static final String LEASE_NAMESPACE_DEPRECATED = "--leader-elect-lease-namespace";
  /** Deprecated alias of {@link #LEASE_NAME}. */
  public static final String LEASE_NAME_DEPRECATED = "--leader-elect-lease-name";
  public static final String IDENTITY = "--leader-elect-identity";
  public static final String HTTP_PORT = "--http-port";
  public static final String METRICS_SECURE = "--metrics-secure";
  public static final String METRICS_PORT = "--metrics-port";
  public static final String METRICS_CERT_FILE = "--metrics-cert-file";
  public static final String METRICS_KEY_FILE = "--metrics-key-file";
  public static final String LOG_FORMAT = "--log-format";
  public static final String LOG_LEVEL = "--log-level";
  public static final String RESYNC_PERIOD = "--resync-period";
  public static final String CONCURRENT_RECONCILES = "--concurrent-reconciles";

  private Flags() {}
}
