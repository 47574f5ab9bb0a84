package dev.headroom.api.provisioningrequest.v1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Pattern;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** A reference by name to an object in the request's namespace. */
@JsonInclude(JsonInclude.Include.NON_EMPTY)
public class Reference {
  @JsonPropertyDescription("The name of the referenced object.")
  @Required
  @Size(max = 253)
  @Pattern(ProvisioningRequestSpec.NAME_PATTERN)
  private String name;

  public Reference() {}

  public Reference(String name) {
    this.name = name;
  }

  public String getName() { return name; }
  public void setName(String v) { this.name = v; }

  @Override
  public boolean equals(Object o) {
    return o instanceof Reference r && Objects.equals(name, r.name);
  }

  @Override
  public int hashCode() {
    return Objects.hashCode(name);
  }
}
