package dev.headroom.api.provisioningrequest.v1;

import com.fasterxml.jackson.annotation.JsonPropertyDescription;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import io.fabric8.generator.annotation.Min;
import io.fabric8.generator.annotation.Required;
import java.util.Objects;

/** One set of pods of a request: {@code count} pods made from one PodTemplate of the request's namespace. */
@JsonPropertyOrder({"podTemplateRef", "count"})
public class PodSet {
  @JsonPropertyDescription("The PodTemplate, in the request's namespace, the pods are made from.")
  @Required
  private Reference podTemplateRef;

  @JsonPropertyDescription("How many pods of this set.")
  @Required
  @Min(1)
  private int count;

  public PodSet() {}

  public PodSet(String podTemplateName, int count) {
    this.podTemplateRef = new Reference(podTemplateName);
    this.count = count;
  }

  public Reference getPodTemplateRef() { return podTemplateRef; }
  public void setPodTemplateRef(Reference v) { this.podTemplateRef = v; }
  public int getCount() { return count; }
  public void setCount(int v) { this.count = v; }

  @Override
  public boolean equals(Object o) {
    return o instanceof PodSet s && Objects.equals(podTemplateRef, s.podTemplateRef) && count == s.count;
  }

  @Override
  public int hashCode() {
    return Objects.hash(podTemplateRef, count);
  }
}
