package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** A reference by name to an object in the buffer's namespace (a PodTemplate). */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class LocalObjectRef {
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
}
