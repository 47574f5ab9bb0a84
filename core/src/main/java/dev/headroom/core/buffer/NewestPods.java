package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The newest live pod of a scalable object (spec §3.3 step 1): the rule, and an incremental form of it for
 * views that see pods join and leave a set.
 */
public final class NewestPods {

  private NewestPods() {}

  /**
   * The newest pod: larger creationTimestamp is newer; on ties the smaller name wins ([H-IMPL]); on full ties
   * the earlier pod of the iteration. Each distinct timestamp text is parsed once (pods of one rollout share it).
   */
  public static Optional<Pod> of(Iterable<Pod> pods) {
    Map<String, Instant> parsed = new HashMap<>();
    Pod best = null;
    Instant bestCreated = null;
    String bestName = null;
    for (Pod p : pods) {
      Instant created = creation(p, parsed);
      String name = p.getMetadata() == null || p.getMetadata().getName() == null ? "" : p.getMetadata().getName();
      int c = best == null ? 1 : created.compareTo(bestCreated);
      if (c > 0 || (c == 0 && name.compareTo(bestName) < 0)) {
        best = p;
        bestCreated = created;
        bestName = name;
      }
    }
    return Optional.ofNullable(best);
  }

  private static Instant creation(Pod p, Map<String, Instant> parsed) {
    String text = p.getMetadata() == null ? null : p.getMetadata().getCreationTimestamp();
    if (text == null) {
      return Timestamps.creation(p.getMetadata());
    }
    Instant i = parsed.get(text);
    if (i == null) {
      i = Timestamps.creation(p.getMetadata());
      parsed.put(text, i);
    }
    return i;
  }

  /**
   * The newest pod of a pod set kept up to date as pods join and leave it, for views that see those changes: at
   * any time {@link #newest} equals {@link NewestPods#of} over the set's pods listed in ascending position. The
   * caller gives each pod a position unique in the set (its place in the view's list order) and must not change a
   * member's {@code creationTimestamp} or name in place. Not thread-safe.
   */
  public static final class Tracker {

    private record Entry(Instant created, String name, long position, Pod pod) {}

    /** The order of the rule: newer first, then smaller name, then earlier position. */
    private static final Comparator<Entry> RULE = Comparator.comparing(Entry::created).reversed()
        .thenComparing(Entry::name).thenComparingLong(Entry::position);

    private final TreeSet<Entry> ordered = new TreeSet<>(RULE);
    private final Map<Long, Entry> byPosition = new HashMap<>();
    /** The last timestamp text parsed and its value (pods created together share it). */
    private String lastText;
    private Instant lastCreated;

    /** Adds {@code pod} at {@code position}, replacing the pod held there. */
    public void add(Pod pod, long position) {
      remove(position);
      String name = pod.getMetadata() == null || pod.getMetadata().getName() == null ? "" : pod.getMetadata().getName();
      String text = pod.getMetadata() == null ? null : pod.getMetadata().getCreationTimestamp();
      Instant created;
      if (text != null && text.equals(lastText)) {
        created = lastCreated;
      } else {
        created = Timestamps.creation(pod.getMetadata());
        lastText = text;
        lastCreated = created;
      }
      Entry e = new Entry(created, name, position, pod);
      ordered.add(e);
      byPosition.put(position, e);
    }

    /** Removes the pod at {@code position}; nothing when there is none. */
    public void remove(long position) {
      Entry e = byPosition.remove(position);
      if (e != null) {
        ordered.remove(e);
      }
    }

    /** The newest pod of the set, empty when the set is empty. */
    public Optional<Pod> newest() {
      return ordered.isEmpty() ? Optional.empty() : Optional.of(ordered.first().pod());
    }

    /** Number of pods held. */
    public int size() {
      return byPosition.size();
    }
  }
}
