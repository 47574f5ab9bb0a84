package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;

/** Desired buffer: which pod shape ({@code podTemplateRef} or {@code scalableRef}) and how many chunks. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class CapacityBufferSpec {
  private String provisioningStrategy;
  private LocalObjectRef podTemplateRef;
  private ScalableRef scalableRef;
  private Integer replicas;
  private Integer percentage;
  private Map<String, Quantity> limits;

  public String getProvisioningStrategy() { return provisioningStrategy; }
  public void setProvisioningStrategy(String v) { this.provisioningStrategy = v; }
  public LocalObjectRef getPodTemplateRef() { return podTemplateRef; }
  public void setPodTemplateRef(LocalObjectRef v) { this.podTemplateRef = v; }
  public ScalableRef getScalableRef() { return scalableRef; }
  public void setScalableRef(ScalableRef v) { this.scalableRef = v; }
  public Integer getReplicas() { return replicas; }
  public void setReplicas(Integer v) { this.replicas = v; }
  public Integer getPercentage() { return percentage; }
  public void setPercentage(Integer v) { this.percentage = v; }
  public Map<String, Quantity> getLimits() { return limits; }
  public void setLimits(Map<String, Quantity> v) { this.limits = v; }
}
