package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import dev.headroom.api.v1beta1.LocalObjectRef;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Objects;

/** The status write helpers SetReady / SetNotReady of spec §3.1, and status copy and comparison (§6.4 H1). */
public final class BufferStatuses {

  private BufferStatuses() {}

  /**
   * SetReady: replaces podTemplateRef, podTemplateGeneration, replicas and provisioningStrategy (null removes),
   * then merges {@code ReadyForProvisioning=True}.
   */
  public static void setReady(CapacityBuffer buffer, String templateName, Long generation, Integer replicas, Instant now) {
    CapacityBufferStatus s = replaceFields(buffer, templateName, generation, replicas);
    StatusConditions.set(s.getConditions(), BufferConditions.ready(generation(buffer)), now);
  }

  /** SetNotReady: like {@link #setReady}, with {@code ReadyForProvisioning=False} and {@code err} (may be null). */
  public static void setNotReady(CapacityBuffer buffer, String templateName, Long generation, Integer replicas, String err, Instant now) {
    CapacityBufferStatus s = replaceFields(buffer, templateName, generation, replicas);
    StatusConditions.set(s.getConditions(), BufferConditions.notReady(err, generation(buffer)), now);
  }

  /** The buffer's status, created (with an empty condition list) when absent. */
  public static CapacityBufferStatus statusOf(CapacityBuffer buffer) {
    CapacityBufferStatus s = buffer.getStatus();
    if (s == null) {
      s = new CapacityBufferStatus();
      buffer.setStatus(s);
    }
    if (s.getConditions() == null) {
      s.setConditions(new ArrayList<>());
    }
    return s;
  }

  /** The status strategy derived from the spec strategy: null stays null, {@code ""} becomes the active strategy. */
  public static String statusStrategy(String specStrategy) {
    if (specStrategy == null) {
      return null;
    }
    return specStrategy.isEmpty() ? BufferConditions.STRATEGY_ACTIVE_CAPACITY : specStrategy;
  }

  /** {@code metadata.generation}, 0 when absent: the observedGeneration of every condition Headroom writes (§4.3). */
  public static long generation(CapacityBuffer buffer) {
    Long g = buffer.getMetadata() == null ? null : buffer.getMetadata().getGeneration();
    return g == null ? 0 : g;
  }

  /** A deep copy of a status (null stays null). */
  public static CapacityBufferStatus copy(CapacityBufferStatus s) {
    if (s == null) {
      return null;
    }
    CapacityBufferStatus c = new CapacityBufferStatus();
    c.setPodTemplateRef(s.getPodTemplateRef() == null ? null : new LocalObjectRef(s.getPodTemplateRef().getName()));
    c.setReplicas(s.getReplicas());
    c.setPodTemplateGeneration(s.getPodTemplateGeneration());
    c.setProvisioningStrategy(s.getProvisioningStrategy());
    c.setConditions(StatusConditions.copy(s.getConditions()));
    return c;
  }

  /**
   * Semantic equality for the write-only-on-change rule (§6.4 H1): every field by value, conditions by
   * {@link StatusConditions#semanticallyEqual}; a null status equals an empty one.
   */
  public static boolean semanticallyEqual(CapacityBufferStatus a, CapacityBufferStatus b) {
    CapacityBufferStatus x = a == null ? new CapacityBufferStatus() : a;
    CapacityBufferStatus y = b == null ? new CapacityBufferStatus() : b;
    return Objects.equals(x.getPodTemplateRef(), y.getPodTemplateRef())
        && Objects.equals(x.getReplicas(), y.getReplicas())
        && Objects.equals(x.getPodTemplateGeneration(), y.getPodTemplateGeneration())
        && Objects.equals(x.getProvisioningStrategy(), y.getProvisioningStrategy())
        && StatusConditions.semanticallyEqual(x.getConditions(), y.getConditions());
  }

  private static CapacityBufferStatus replaceFields(CapacityBuffer buffer, String templateName, Long generation, Integer replicas) {
    CapacityBufferStatus s = statusOf(buffer);
    s.setPodTemplateRef(templateName == null ? null : new LocalObjectRef(templateName));
    s.setPodTemplateGeneration(generation);
    s.setReplicas(replicas);
    s.setProvisioningStrategy(statusStrategy(buffer.getSpec() == null ? null : buffer.getSpec().getProvisioningStrategy()));
    return s;
  }
}
