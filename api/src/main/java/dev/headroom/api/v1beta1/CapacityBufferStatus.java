package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.headroom.api.ConditionJson;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.model.annotation.StatusReplicas;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * Observed buffer: the managed pod template, the chunk count and the conditions. A null field is omitted on the
 * wire, 0 is written (§1.7); conditions are written with {@code observedGeneration: 0} omitted and {@code message}
 * always present (see {@link ConditionJson}).
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"podTemplateRef", "replicas", "podTemplateGeneration", "conditions", "provisioningStrategy"})
public class CapacityBufferStatus {
  @JsonPropertyDescription("The PodTemplate, managed by the controller, that describes one chunk.")
  private LocalObjectRef podTemplateRef;

  @JsonPropertyDescription("The number of chunks the autoscaler keeps available.")
  @StatusReplicas
  private Integer replicas;

  @JsonPropertyDescription("The generation of the managed PodTemplate when the status was written.")
  private Long podTemplateGeneration;

  @JsonPropertyDescription("The observed state of the buffer; at most one condition per type.")
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonSerialize(contentUsing = ConditionJson.Serializer.class)
  private List<Condition> conditions = new ArrayList<>();

  @JsonPropertyDescription("The provisioning strategy the status was computed for.")
  private String provisioningStrategy;

  public LocalObjectRef getPodTemplateRef() { return podTemplateRef; }
  public void setPodTemplateRef(LocalObjectRef v) { this.podTemplateRef = v; }
  public Integer getReplicas() { return replicas; }
  public void setReplicas(Integer v) { this.replicas = v; }
  public Long getPodTemplateGeneration() { return podTemplateGeneration; }
  public void setPodTemplateGeneration(Long v) { this.podTemplateGeneration = v; }
  public List<Condition> getConditions() { return conditions; }
  public void setConditions(List<Condition> v) { this.conditions = v == null ? new ArrayList<>() : v; }
  public String getProvisioningStrategy() { return provisioningStrategy; }
  public void setProvisioningStrategy(String v) { this.provisioningStrategy = v; }

  @Override
  public boolean equals(Object o) {
    return o instanceof CapacityBufferStatus s && Objects.equals(podTemplateRef, s.podTemplateRef)
        && Objects.equals(replicas, s.replicas) && Objects.equals(podTemplateGeneration, s.podTemplateGeneration)
        && Objects.equals(conditions, s.conditions) && Objects.equals(provisioningStrategy, s.provisioningStrategy);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podTemplateRef, replicas, podTemplateGeneration, conditions, provisioningStrategy);
  }

  @Override
  public String toString() {
    return "CapacityBufferStatus{podTemplateRef=" + podTemplateRef + ", replicas=" + replicas
        + ", podTemplateGeneration=" + podTemplateGeneration + ", conditions=" + conditions
        + ", provisioningStrategy=" + provisioningStrategy + "}";
  }
}
