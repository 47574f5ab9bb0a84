package dev.headroom.core.workload;

import java.util.Map;
import java.util.Objects;

/**
 * The requests of one container that the HPA counts (a regular container or a restartable init container).
 *
 * @param name the container name
 * @param requests milli-units by resource name (cpu in millicores)
 */
public record ContainerRequests(String name, Map<String, Long> requests) {

  public ContainerRequests {
    Objects.requireNonNull(name, "name");
    requests = Map.copyOf(requests);
  }
}
