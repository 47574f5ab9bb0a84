package dev.headroom.api.provisioningrequest.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import io.fabric8.generator.annotation.ValidationRule;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** What is requested: the pod sets, the provisioning class and its parameters. Immutable once created. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"podSets", "provisioningClassName", "parameters"})
public class ProvisioningRequestSpec {
  /** The DNS-1123 subdomain pattern of object names and class names. */
  public static final String NAME_PATTERN = "^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$";
  static final String IMMUTABLE = "self == oldSelf";
  static final String IMMUTABLE_MESSAGE = "Value is immutable";

  @JsonPropertyDescription("The sets of pods to provision capacity for, each a PodTemplate and a count.")
  @Required
  @Size(min = 1, max = 32)
  @ValidationRule(value = IMMUTABLE, message = IMMUTABLE_MESSAGE)
  private List<PodSet> podSets = new ArrayList<>();

  @JsonPropertyDescription("The provisioning class: check-capacity.autoscaling.x-k8s.io (is there room now) or "
      + "best-effort-atomic-scale-up.autoscaling.x-k8s.io (scale up for all of the pods or none).")
  @Required
  @Size(max = 253)
  @Pattern(NAME_PATTERN)
  @ValidationRule(value = IMMUTABLE, message = IMMUTABLE_MESSAGE)
  private String provisioningClassName;

  @JsonPropertyDescription("Parameters of the provisioning class (at most 255 characters each).")
  @Size(max = 100)
  @ValidationRule(value = IMMUTABLE, message = IMMUTABLE_MESSAGE)
  private Map<String, String> parameters;

  public List<PodSet> getPodSets() { return podSets; }
  public void setPodSets(List<PodSet> v) { this.podSets = v == null ? new ArrayList<>() : v; }
  public String getProvisioningClassName() { return provisioningClassName; }
  public void setProvisioningClassName(String v) { this.provisioningClassName = v; }
  public Map<String, String> getParameters() { return parameters; }
  public void setParameters(Map<String, String> v) { this.parameters = v == null ? null : new LinkedHashMap<>(v); }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProvisioningRequestSpec s && Objects.equals(podSets, s.podSets)
        && Objects.equals(provisioningClassName, s.provisioningClassName) && Objects.equals(parameters, s.parameters);
  }

  @Override
  public int hashCode() {
    return Objects.hash(podSets, provisioningClassName, parameters);
  }
}
