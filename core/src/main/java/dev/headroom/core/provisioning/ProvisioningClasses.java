package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import java.util.Map;

/**
 * Which requests the autoscaler handles, as the Cluster Autoscaler decides it
 * ({@code cluster-autoscaler/provisioningrequest/supported_classes.go}): {@code best-effort-atomic-scale-up} unless a
 * check-capacity processor instance is set, and {@code check-capacity} whose {@code processorInstance} parameter
 * matches the instance (both empty, or equal; with an instance set and no parameter, the class name prefixed by the
 * instance, which upstream still accepts until 1.35).
 */
public final class ProvisioningClasses {
  /** Parameter naming the check-capacity processor instance that should handle the request. */
  public static final String PROCESSOR_INSTANCE_PARAMETER = "processorInstance";
  /** Check-capacity parameter: {@code "true"} makes a request that found no capacity fail instead of retrying. */
  public static final String NO_RETRY_PARAMETER = "noRetry";

  private ProvisioningClasses() {}

  /** True when the autoscaler with check-capacity processor instance {@code instance} ("" for none) handles it. */
  public static boolean supported(ProvisioningRequest pr, String instance) {
    if (ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC.equals(className(pr))) {
      return instance.isEmpty();
    }
    return supportedCheckCapacity(pr, instance);
  }

  /** True when it is a check-capacity request for processor instance {@code instance}. */
  public static boolean supportedCheckCapacity(ProvisioningRequest pr, String instance) {
    String cls = className(pr);
    String param = parameter(pr, PROCESSOR_INSTANCE_PARAMETER);
    if (instance.isEmpty()) {
      return param.isEmpty() && ProvisioningRequest.CLASS_CHECK_CAPACITY.equals(cls);
    }
    if (!param.isEmpty()) {
      return instance.equals(param) && ProvisioningRequest.CLASS_CHECK_CAPACITY.equals(cls);
    }
    return cls.startsWith(instance) && cls.substring(instance.length()).equals(ProvisioningRequest.CLASS_CHECK_CAPACITY);
  }

  /** True when a check-capacity request that finds no capacity fails at once ({@code noRetry: "true"}). */
  public static boolean noRetry(ProvisioningRequest pr) {
    return "true".equals(parameter(pr, NO_RETRY_PARAMETER));
  }

  /** The request's class name, "" when unset. */
  public static String className(ProvisioningRequest pr) {
    String c = pr.getSpec() == null ? null : pr.getSpec().getProvisioningClassName();
    return c == null ? "" : c;
  }

  private static String parameter(ProvisioningRequest pr, String key) {
    Map<String, String> p = pr.getSpec() == null ? null : pr.getSpec().getParameters();
    String v = p == null ? null : p.get(key);
    return v == null ? "" : v;
  }
}
