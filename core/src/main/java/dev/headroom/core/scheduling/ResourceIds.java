package dev.headroom.core.scheduling;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The resource-ID table: every resource name seen by one {@link SchedulingCompiler} gets a small dense
 * integer, so requests and allocatable amounts are {@code long[]} vectors indexed by ID.
 *
 * <p>IDs 0–2 are fixed ({@code cpu}, {@code memory}, {@code ephemeral-storage}); extended resources
 * (for example {@code nvidia.com/gpu}) and hugepages get the next free ID on first sight. The pod count is
 * not a vector entry: it is kept apart ({@link CompiledNode#maxPods()}). Vectors compiled before a new
 * resource appeared are shorter; a missing entry means 0.
 */
public final class ResourceIds {

  /** ID of {@code cpu} (millicores). */
  public static final int CPU = 0;
  /** ID of {@code memory} (milli-bytes). */
  public static final int MEMORY = 1;
  /** ID of {@code ephemeral-storage} (milli-bytes). */
  public static final int EPHEMERAL_STORAGE = 2;
  /** Name of the pod-count resource, which is kept outside the vector. */
  public static final String PODS = "pods";

  private final Map<String, Integer> ids = new HashMap<>();
  private final List<String> names = new ArrayList<>();

  /** A table holding the three fixed resources. */
  public ResourceIds() {
    idOf("cpu");
    idOf("memory");
    idOf("ephemeral-storage");
  }

  /** The ID of {@code name}, allocating the next one on first sight. */
  public int idOf(String name) {
    Integer id = ids.get(name);
    if (id != null) {
      return id;
    }
    int next = names.size();
    ids.put(name, next);
    names.add(name);
    return next;
  }

  /** The ID of {@code name}, or -1 when it was never seen. */
  public int find(String name) {
    Integer id = ids.get(name);
    return id == null ? -1 : id;
  }

  /** The resource name of an ID. */
  public String name(int id) {
    return names.get(id);
  }

  /** Number of IDs handed out so far. */
  public int size() {
    return names.size();
  }
}
