package dev.headroom.api.provisioningrequest.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import dev.headroom.api.ConditionJson;
import io.fabric8.generator.annotation.Size;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import tools.jackson.databind.annotation.JsonSerialize;

/**
 * What the autoscaler observed: the conditions ({@code Accepted}, {@code Provisioned}, {@code Failed},
 * {@code BookingExpired}, {@code CapacityRevoked}) and the class's free-form details.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"conditions", "provisioningClassDetails"})
public class ProvisioningRequestStatus {
  @JsonPropertyDescription("The observed state of the request; at most one condition per type.")
  @JsonInclude(JsonInclude.Include.NON_EMPTY)
  @JsonSerialize(contentUsing = ConditionJson.Serializer.class)
  private List<Condition> conditions = new ArrayList<>();

  @JsonPropertyDescription("Values a provisioning class passes to users (at most 32768 characters each).")
  @Size(max = 64)
  private Map<String, String> provisioningClassDetails;

  public List<Condition> getConditions() { return conditions; }
  public void setConditions(List<Condition> v) { this.conditions = v == null ? new ArrayList<>() : v; }
  public Map<String, String> getProvisioningClassDetails() { return provisioningClassDetails; }
  public void setProvisioningClassDetails(Map<String, String> v) {
    this.provisioningClassDetails = v == null ? null : new LinkedHashMap<>(v);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof ProvisioningRequestStatus s && Objects.equals(conditions, s.conditions)
        && Objects.equals(provisioningClassDetails, s.provisioningClassDetails);
  }

  @Override
  public int hashCode() {
    return Objects.hash(conditions, provisioningClassDetails);
  }
}
