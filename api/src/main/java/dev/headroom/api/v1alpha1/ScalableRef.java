package dev.headroom.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Required;
import io.fabric8.generator.annotation.Size;
import java.util.Objects;

/** A reference to a workload with a scale subresource in the buffer's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({"apiGroup", "kind", "name"})
public class ScalableRef {
  @JsonPropertyDescription("API group of the workload; empty or absent means the core group.")
  private String apiGroup;

  @JsonPropertyDescription("Kind of the workload, for example Deployment.")
  @Required
  @Size(min = 1)
  private String kind;

  @JsonPropertyDescription("Name of the workload.")
  @Required
  @Size(min = 1)
  private String name;

  public ScalableRef() {}

  public ScalableRef(String apiGroup, String kind, String name) {
    this.apiGroup = apiGroup;
    this.kind = kind;
    this.name = name;
  }

  public String getApiGroup() { return apiGroup; }
  public void setApiGroup(String v) { this.apiGroup = v; }
  public String getKind() { return kind; }
  public void setKind(String v) { this.kind = v; }
  public String getName() { return name; }
  public void setName(String v) { this.name = v; }

  @Override
  public boolean equals(Object o) {
    return o instanceof ScalableRef r && Objects.equals(apiGroup, r.apiGroup) && Objects.equals(kind, r.kind) && Objects.equals(name, r.name);
  }

  @Override
  public int hashCode() { return Objects.hash(apiGroup, kind, name); }

  @Override
  public String toString() { return "ScalableRef{apiGroup=" + apiGroup + ", kind=" + kind + ", name=" + name + "}"; }
}
