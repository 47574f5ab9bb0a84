package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Condition;
import java.util.List;

/**
 * The one definition of every CapacityBuffer condition type, reason and message (spec §3.7, §4.1, §8), and
 * factories for the conditions the buffer controller writes.
 *
 * <p>Factories return conditions without {@code lastTransitionTime}; {@link StatusConditions#set} stamps it.
 * {@code observedGeneration} 0 is stored as null so that it is omitted when serialised (§1.7).
 */
public final class BufferConditions {

  private BufferConditions() {}

  // ---- strategy and annotations

  /** The upstream provisioning strategy ({@code ""} is treated the same way): chunks kept as running capacity. */
  public static final String STRATEGY_ACTIVE_CAPACITY = "buffer.x-k8s.io/active-capacity";
  /**
   * [H-EXT] Headroom's standby strategy (docs/standby-capacity.md): chunks kept on suspended nodes that resume faster
   * than a new node starts. Acted on only when {@code --standby-capacity} is on.
   */
  public static final String STRATEGY_STANDBY_CAPACITY = "buffer.headroom.dev/standby-capacity";
  /** [H-EXT] Schedule annotation (§8.2). */
  public static final String ANNOTATION_ACTIVE_SCHEDULE = "headroom.dev/active-schedule";

  // ---- status values

  public static final String TRUE = "True";
  public static final String FALSE = "False";
  public static final String UNKNOWN = "Unknown";

  // ---- types

  public static final String READY_FOR_PROVISIONING = "ReadyForProvisioning";
  public static final String LIMITED_BY_QUOTAS = "LimitedByQuotas";
  public static final String PROVISIONING = "Provisioning";
  /** [H-EXT] §8.1. */
  public static final String CAPACITY_AVAILABLE = "CapacityAvailable";
  /** [H-EXT] §8.2. */
  public static final String SCHEDULE_ACTIVE = "ScheduleActive";

  // ---- ReadyForProvisioning

  public static final String REASON_ATTRIBUTES_SET_SUCCESSFULLY = "AttributesSetSuccessfully";
  public static final String MESSAGE_READY = "ready";
  public static final String REASON_ERROR = "error";
  /** The NotReady message without an error; with one it is followed by {@code ": <err>"}. */
  public static final String MESSAGE_NOT_READY = "Buffer not ready for provisioning";

  // ---- LimitedByQuotas

  public static final String REASON_RESOURCE_QUOTAS_ALLOCATED = "ResourceQuotasAllocated";

  // ---- Provisioning (written by the autoscaler)

  public static final String REASON_NOT_READY_FOR_PROVISIONING = "NotReadyForProvisioning";
  public static final String MESSAGE_NOT_READY_FOR_PROVISIONING = "CapacityBuffer is not ready for provisioning";
  public static final String REASON_BUFFER_IS_EMPTY = "BufferIsEmpty";
  public static final String MESSAGE_BUFFER_IS_EMPTY = "CapacityBuffer has zero replicas";
  public static final String REASON_FAILED_TO_GET_POD_TEMPLATE = "FailedToGetPodTemplate";
  /** Followed by the error text. */
  public static final String MESSAGE_FAILED_TO_GET_POD_TEMPLATE = "failed to get pod template with error: ";
  public static final String REASON_FAILED_TO_MAKE_FAKE_PODS = "FailedToMakeFakePods";
  /** Followed by the error text. */
  public static final String MESSAGE_FAILED_TO_MAKE_FAKE_PODS = "failed to create fake pods with error: ";
  public static final String REASON_FAKE_PODS_INJECTED = "FakePodsInjected";
  /** [H-EXT] Standby buffer: its chunks are held on standby nodes (the message says how many, of which group). */
  public static final String REASON_STANDBY_NODES_KEPT = "StandbyNodesKept";
  /** [H-EXT] Standby buffer: the node provider cannot suspend nodes (the message is the provider's reason). */
  public static final String REASON_STANDBY_NOT_SUPPORTED = "StandbyNotSupported";
  /** [H-EXT] Standby buffer: no node group with {@code spec.standby} can hold a chunk (the message says why). */
  public static final String REASON_NO_STANDBY_NODE_GROUP = "NoStandbyNodeGroup";

  // ---- CapacityAvailable [H-EXT] (written by the autoscaler, §8.1)

  public static final String REASON_FITS_EXISTING_CAPACITY = "FitsExistingCapacity";
  public static final String REASON_REQUIRES_NEW_CAPACITY = "RequiresNewCapacity";
  public static final String REASON_INFEASIBLE = "Infeasible";
  public static final String REASON_NOT_EVALUATED = "NotEvaluated";
  /** [H-EXT] A gang buffer's virtual pods get capacity all together or not at all; this one gets none. */
  public static final String REASON_GANG_DOES_NOT_FIT = "GangDoesNotFit";

  // ---- ScheduleActive [H-EXT] (§8.2)

  public static final String REASON_WITHIN_SCHEDULE = "WithinSchedule";
  public static final String REASON_OUTSIDE_SCHEDULE = "OutsideSchedule";
  public static final String REASON_INVALID_SCHEDULE = "InvalidSchedule";
  public static final String MESSAGE_ACTIVE_UNTIL = "Active until ";
  public static final String MESSAGE_ACTIVE_NO_END = "Active with no scheduled end";
  public static final String MESSAGE_INACTIVE_UNTIL = "Inactive until ";
  public static final String MESSAGE_INACTIVE_NO_START = "Inactive with no scheduled start";
  public static final String MESSAGE_INVALID_SCHEDULE = "Invalid headroom.dev/active-schedule annotation: ";

  // ---- error texts of the translation (§3.7); "<prefix><err>"

  public static final String ERR_NOT_DEFINED = "replicas, percentage and limits are not defined";
  public static final String ERR_LIMITS_NOT_FOUND = "resources in configured limits not found in the pod template";
  public static final String ERR_REPLICAS = "couldn't get number of replicas for buffer: ";
  public static final String ERR_GET_POD_TEMPLATE = "capacity buffer client can't get pod template: ";
  public static final String ERR_FAKE_POD = "failed to create fake pod: ";
  public static final String ERR_MANAGED_TEMPLATE = "failed to create or update managed pod template: ";
  public static final String ERR_LIVE_POD = "failed to resolve live pod: ";
  public static final String ERR_SCALABLE_OBJECT = "failed to resolve scalable object: ";
  public static final String ERR_POD_SPEC = "failed to resolve pod spec: ";
  public static final String ERR_GET_SCALE_OBJECT = "failed to get scale object: ";
  public static final String ERR_EXISTING_POD = "failed to get existing pod for scale object: ";
  public static final String ERR_SCALE_SUBRESOURCE = "failed to get scale sub resource: ";
  public static final String ERR_PARSE_SELECTOR = "failed to parse label selector: ";
  public static final String ERR_LIST_PODS = "failed to list pods: ";
  /** [H-FIX] §3.1. */
  public static final String ERR_NO_REF = "neither podTemplateRef nor scalableRef is set";
  /** Quota allocation (§5). */
  public static final String ERR_LIST_QUOTAS = "resourceQuotaAllocator: Failed to list resource quotas, error: ";

  /** {@code kind <apiGroup>/<kind> is not supported to use pod template}. */
  public static String errKindNotSupported(String apiGroup, String kind) {
    return "kind " + (apiGroup == null ? "" : apiGroup) + "/" + kind + " is not supported to use pod template";
  }

  /** {@code failed to get <Kind>: <err>} ([H-FIX] real kind name). */
  public static String errGetWorkload(String kind, String err) {
    return "failed to get " + kind + ": " + err;
  }

  /** {@code resourceQuotaAllocator: failed to check if pod matches quota "<name>", error: <err>}. */
  public static String errQuotaScope(String quota, String err) {
    return "resourceQuotaAllocator: failed to check if pod matches quota \"" + quota + "\", error: " + err;
  }

  // ---- factories

  /** {ReadyForProvisioning, True, AttributesSetSuccessfully, ready}. */
  public static Condition ready(long generation) {
    return condition(READY_FOR_PROVISIONING, TRUE, REASON_ATTRIBUTES_SET_SUCCESSFULLY, MESSAGE_READY, generation);
  }

  /** {ReadyForProvisioning, False, error, "Buffer not ready for provisioning[: err]"}. */
  public static Condition notReady(String err, long generation) {
    String message = err == null ? MESSAGE_NOT_READY : MESSAGE_NOT_READY + ": " + err;
    return condition(READY_FOR_PROVISIONING, FALSE, REASON_ERROR, message, generation);
  }

  /** {LimitedByQuotas, True, ResourceQuotasAllocated, "Buffer replicas limited from c to a due to quotas: q1, q2"}. */
  public static Condition limitedByQuotas(int current, int allowed, List<String> quotas, long generation) {
    String message = "Buffer replicas limited from " + current + " to " + allowed + " due to quotas: " + String.join(", ", quotas);
    return condition(LIMITED_BY_QUOTAS, TRUE, REASON_RESOURCE_QUOTAS_ALLOCATED, message, generation);
  }

  /** {LimitedByQuotas, False, ResourceQuotasAllocated, ""}. */
  public static Condition notLimitedByQuotas(long generation) {
    return condition(LIMITED_BY_QUOTAS, FALSE, REASON_RESOURCE_QUOTAS_ALLOCATED, "", generation);
  }

  /** {Provisioning, False, reason, message}. */
  public static Condition provisioningFailed(String reason, String message, long generation) {
    return condition(PROVISIONING, FALSE, reason, message, generation);
  }

  /** {Provisioning, True, reason, ""}. */
  public static Condition provisioningSucceeded(String reason, long generation) {
    return condition(PROVISIONING, TRUE, reason, "", generation);
  }

  /** A condition without lastTransitionTime; generation 0 is stored as null (omitted). */
  public static Condition condition(String type, String status, String reason, String message, long generation) {
    Condition c = new Condition();
    c.setType(type);
    c.setStatus(status);
    c.setReason(reason);
    c.setMessage(message == null ? "" : message);
    c.setObservedGeneration(generation == 0 ? null : generation);
    return c;
  }
}
