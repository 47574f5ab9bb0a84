package dev.headroom.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Default;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.ValidationRule;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.model.annotation.SpecReplicas;
import java.util.Map;
import java.util.Objects;

/**
 * Desired buffer: which pod shape ({@code podTemplateRef} or {@code scalableRef}) and how many chunks
 * ({@code replicas}, {@code percentage}, capped by {@code limits}). A null field is absent; 0 is a value.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"provisioningStrategy", "podTemplateRef", "scalableRef", "replicas", "percentage", "limits"})
@ValidationRule(value = CapacityBufferSpec.RULE_REPLICAS_OR_LIMITS, message = CapacityBufferSpec.MESSAGE_REPLICAS_OR_LIMITS)
@ValidationRule(value = CapacityBufferSpec.RULE_NOT_BOTH_REFS, message = CapacityBufferSpec.MESSAGE_NOT_BOTH_REFS)
public class CapacityBufferSpec {
  /** CEL rule 1 (both versions). */
  public static final String RULE_REPLICAS_OR_LIMITS = dev.headroom.api.v1beta1.CapacityBufferSpec.RULE_REPLICAS_OR_LIMITS;
  /** Message of CEL rule 1 (both versions; the literal "X" is upstream's). */
  public static final String MESSAGE_REPLICAS_OR_LIMITS = dev.headroom.api.v1beta1.CapacityBufferSpec.MESSAGE_REPLICAS_OR_LIMITS;
  /** CEL rule 2 (both versions). */
  public static final String RULE_NOT_BOTH_REFS = dev.headroom.api.v1beta1.CapacityBufferSpec.RULE_NOT_BOTH_REFS;
  /** Message of CEL rule 2 in v1alpha1 (upstream's wording, reproduced although it contradicts the rule). */
  public static final String MESSAGE_NOT_BOTH_REFS = "You must define both PodTemplateRef and ScalableRef";
  /** The schema default of {@code provisioningStrategy}. */
  public static final String DEFAULT_PROVISIONING_STRATEGY = "buffer.x-k8s.io/active-capacity";

  @JsonPropertyDescription("How the buffer's capacity is provisioned. Buffers whose strategy the controller does not "
      + "support are left untouched.")
  @Default(DEFAULT_PROVISIONING_STRATEGY)
  private String provisioningStrategy;

  @JsonPropertyDescription("A PodTemplate in the buffer's namespace that gives the shape of one chunk. Requires "
      + "replicas or limits. Mutually exclusive with scalableRef.")
  private LocalObjectRef podTemplateRef;

  @JsonPropertyDescription("A workload with a scale subresource in the buffer's namespace whose pods give the shape of "
      + "one chunk. Mutually exclusive with podTemplateRef.")
  private ScalableRef scalableRef;

  @JsonPropertyDescription("A fixed number of chunks. With percentage, the larger of the two is used; limits caps the "
      + "result.")
  @Min(0)
  @SpecReplicas
  private Integer replicas;

  @JsonPropertyDescription("A number of chunks as a percentage of the scalable object's replicas, rounded up. Used only "
      + "with scalableRef. With replicas, the larger of the two is used; limits caps the result.")
  @Min(0)
  private Integer percentage;

  @JsonPropertyDescription("Caps the total resources of all chunks: the number of chunks is at most the largest whole "
      + "number whose summed pod requests fit in every listed resource.")
  private Map<String, Quantity> limits;

  public CapacityBufferSpec() {}

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

  @Override
  public boolean equals(Object o) {
    return o instanceof CapacityBufferSpec s && Objects.equals(provisioningStrategy, s.provisioningStrategy)
        && Objects.equals(podTemplateRef, s.podTemplateRef) && Objects.equals(scalableRef, s.scalableRef)
        && Objects.equals(replicas, s.replicas) && Objects.equals(percentage, s.percentage)
        && Objects.equals(limits, s.limits);
  }

  @Override
  public int hashCode() {
    return Objects.hash(provisioningStrategy, podTemplateRef, scalableRef, replicas, percentage, limits);
  }

  @Override
  public String toString() {
    return "CapacityBufferSpec{provisioningStrategy=" + provisioningStrategy + ", podTemplateRef=" + podTemplateRef
        + ", scalableRef=" + scalableRef + ", replicas=" + replicas + ", percentage=" + percentage + ", limits="
        + limits + "}";
  }
}
