package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * The buffer filters of spec §6.3 and §7.2 (vectors §9.9). Every filter splits a list into a kept and a
 * dropped side, preserving order.
 */
public final class BufferFilters {

  /** The two sides of a filter. */
  public record Split(List<CapacityBuffer> kept, List<CapacityBuffer> dropped) {
    /** Immutable copies. */
    public Split {
      kept = List.copyOf(kept);
      dropped = List.copyOf(dropped);
    }
  }

  /** The strategies the controller processes: the active-capacity strategy and {@code ""} (null counts as {@code ""}). */
  public static final Set<String> CONTROLLER_STRATEGIES = Set.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY, "");

  private BufferFilters() {}

  /** True iff the buffer's spec strategy is processed by the controller with default settings. */
  public static boolean strategyAllowed(CapacityBuffer b) {
    return CONTROLLER_STRATEGIES.contains(specStrategy(b));
  }

  /**
   * True iff the buffer's spec strategy is processed by the controller with {@code settings}: the standby strategy
   * only when {@link BufferSettings#standbyCapacity()} is on.
   */
  public static boolean strategyAllowed(CapacityBuffer b, BufferSettings settings) {
    String s = specStrategy(b);
    return CONTROLLER_STRATEGIES.contains(s) || (settings.standbyCapacity() && BufferConditions.STRATEGY_STANDBY_CAPACITY.equals(s));
  }

  /** Strategy filter: keeps buffers whose spec strategy (null as {@code ""}) is in {@code allowed}. */
  public static Split byStrategy(List<CapacityBuffer> buffers, Set<String> allowed) {
    return split(buffers, b -> allowed.contains(specStrategy(b)));
  }

  /** Status filter: drops a buffer iff any of its conditions has a (type, status) pair of {@code conditions}. */
  public static Split byConditions(List<CapacityBuffer> buffers, Map<String, String> conditions) {
    return split(buffers, b -> {
      List<Condition> list = b.getStatus() == null || b.getStatus().getConditions() == null ? List.of() : b.getStatus().getConditions();
      return list.stream().noneMatch(c -> conditions.containsKey(c.getType()) && Objects.equals(conditions.get(c.getType()), c.getStatus()));
    });
  }

  /**
   * Template-generation filter: keeps ("changed") buffers whose status template exists with a generation other
   * than {@code status.podTemplateGeneration}; a missing template counts as unchanged.
   *
   * @param templates lookup of a PodTemplate by (namespace, name)
   */
  public static Split byTemplateGenerationChanged(List<CapacityBuffer> buffers, BiFunction<String, String, Optional<PodTemplate>> templates) {
    return split(buffers, b -> {
      if (b.getStatus() == null || b.getStatus().getPodTemplateRef() == null) {
        return false;
      }
      Optional<PodTemplate> t = templates.apply(b.getMetadata().getNamespace(), b.getStatus().getPodTemplateRef().getName());
      if (t.isEmpty()) {
        return false;
      }
      long generation = t.get().getMetadata().getGeneration() == null ? 0 : t.get().getMetadata().getGeneration();
      return !Objects.equals(b.getStatus().getPodTemplateGeneration(), generation);
    });
  }

  /**
   * Combined-any filter: each filter runs on the previous one's dropped side; the result is every kept buffer
   * (in filter order) and the last dropped side.
   */
  public static Split anyOf(List<CapacityBuffer> buffers, List<java.util.function.Function<List<CapacityBuffer>, Split>> filters) {
    List<CapacityBuffer> kept = new ArrayList<>();
    List<CapacityBuffer> remaining = buffers;
    for (var f : filters) {
      Split s = f.apply(remaining);
      kept.addAll(s.kept());
      remaining = s.dropped();
    }
    return new Split(kept, remaining);
  }

  private static Split split(List<CapacityBuffer> buffers, Predicate<CapacityBuffer> keep) {
    List<CapacityBuffer> kept = new ArrayList<>();
    List<CapacityBuffer> dropped = new ArrayList<>();
    for (CapacityBuffer b : buffers) {
      (keep.test(b) ? kept : dropped).add(b);
    }
    return new Split(kept, dropped);
  }

  private static String specStrategy(CapacityBuffer b) {
    String s = b.getSpec() == null ? null : b.getSpec().getProvisioningStrategy();
    return s == null ? "" : s;
  }
}
