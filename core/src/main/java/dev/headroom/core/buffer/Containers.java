package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.PodSpec;
import java.util.ArrayList;
import java.util.List;

/** The containers and init containers of a pod spec, null-safe. */
final class Containers {

  private Containers() {}

  /** Containers followed by init containers (the live objects, for in-place edits). */
  static List<Container> all(PodSpec spec) {
    List<Container> out = new ArrayList<>();
    if (spec.getContainers() != null) {
      out.addAll(spec.getContainers());
    }
    if (spec.getInitContainers() != null) {
      out.addAll(spec.getInitContainers());
    }
    return out;
  }
}
