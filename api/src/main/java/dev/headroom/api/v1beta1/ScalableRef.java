package dev.headroom.api.v1beta1;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/** A reference to a workload with a scale subresource in the buffer's namespace. */
@JsonInclude(JsonInclude.Include.NON_NULL)
public class ScalableRef {
  private String apiGroup;
  private String kind;
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
}
