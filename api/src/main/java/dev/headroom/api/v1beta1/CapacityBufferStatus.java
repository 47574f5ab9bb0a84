package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.List;

/** Observed buffer: the managed pod template, the chunk count and the conditions. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityBufferStatus {
  private LocalObjectRef podTemplateRef;
  private Integer replicas;
  private Long podTemplateGeneration;
  private List<Condition> conditions = new ArrayList<>();
  private String provisioningStrategy;

  public LocalObjectRef getPodTemplateRef() { return podTemplateRef; }
  public void setPodTemplateRef(LocalObjectRef v) { this.podTemplateRef = v; }
  public Integer getReplicas() { return replicas; }
  public void setReplicas(Integer v) { this.replicas = v; }
  public Long getPodTemplateGeneration() { return podTemplateGeneration; }
  public void setPodTemplateGeneration(Long v) { this.podTemplateGeneration = v; }
  public List<Condition> getConditions() { return conditions; }
  public void setConditions(List<Condition> v) { this.conditions = v; }
  public String getProvisioningStrategy() { return provisioningStrategy; }
  public void setProvisioningStrategy(String v) { this.provisioningStrategy = v; }
}
