package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** A reference by name to an object in the buffer's namespace (a PodTemplate). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalObjectRef {
  @JsonPropertyDescription("Name of the referenced object.")
  @Required
  @Size(min = 1)
  private String name;

  public LocalObjectRef() {}

  public LocalObjectRef(String name) { this.name = name; }

  public String getName() { return name; }
  public void setName(String name) { this.name = name; }

  @Override
  public boolean equals(Object o) {
    return o instanceof LocalObjectRef r && Objects.equals(name, r.name);
  }

  @Override
  public int hashCode() { return Objects.hashCode(name); }

  @Override
  public String toString() { return "LocalObjectRef{name=" + name + "}"; }
}
