package dev.headroom.controller.provider.clusterapi;

/** Annotation and resource names of the Cluster API provider (autoscaler spec §6.3), defined once. */
public final class ClusterApiNames {

  /** {@code --cloud-provider} value. */
  public static final String PROVIDER_NAME = "clusterapi";
  /** API group of Cluster API (env {@code CAPI_GROUP} overrides it, as upstream). */
  public static final String DEFAULT_GROUP = "cluster.x-k8s.io";
  /** Preferred version, then the fallback. */
  public static final String V1BETA2 = "v1beta2";
  public static final String V1BETA1 = "v1beta1";

  public static final String MACHINE_DEPLOYMENT = "MachineDeployment";
  public static final String MACHINE_SET = "MachineSet";
  public static final String MACHINE = "Machine";

  /** Group-size annotations (suffixes after {@code <group>/}). */
  public static final String MIN_SIZE = "cluster-api-autoscaler-node-group-min-size";
  public static final String MAX_SIZE = "cluster-api-autoscaler-node-group-max-size";
  /** Resources carrying this annotation are not autoscaled. */
  public static final String PAUSED = "paused";
  /** Marks the Machine CAPI must delete first when replicas drop. */
  public static final String DELETE_MACHINE = "delete-machine";
  /** Node annotations CAPI sets: machine name and namespace. */
  public static final String NODE_MACHINE = "machine";
  public static final String NODE_CLUSTER_NAMESPACE = "cluster-namespace";
  /** Label CAPI puts on MachineDeployments/MachineSets with the cluster name. */
  public static final String CLUSTER_NAME_LABEL = "cluster-name";
  /** Per-group option annotations prefix ({@code <group>/autoscaling-options-<option>}). */
  public static final String OPTIONS_PREFIX = "autoscaling-options-";

  /** Scale-from-zero capacity annotations. */
  public static final String CAPACITY_PREFIX = "capacity.cluster-autoscaler.kubernetes.io/";
  public static final String CAPACITY_CPU = CAPACITY_PREFIX + "cpu";
  public static final String CAPACITY_MEMORY = CAPACITY_PREFIX + "memory";
  public static final String CAPACITY_EPHEMERAL_DISK = CAPACITY_PREFIX + "ephemeral-disk";
  public static final String CAPACITY_MAX_PODS = CAPACITY_PREFIX + "maxPods";
  public static final String CAPACITY_GPU_TYPE = CAPACITY_PREFIX + "gpu-type";
  public static final String CAPACITY_GPU_COUNT = CAPACITY_PREFIX + "gpu-count";
  public static final String CAPACITY_LABELS = CAPACITY_PREFIX + "labels";
  public static final String CAPACITY_TAINTS = CAPACITY_PREFIX + "taints";
  /** Headroom: price of one node per hour. */
  public static final String PRICE_PER_HOUR = "headroom.dev/price-per-hour";

  private ClusterApiNames() {}
}
