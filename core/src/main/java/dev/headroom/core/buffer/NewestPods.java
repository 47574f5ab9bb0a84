package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The newest live pod of a scalable object (spec §3.3 step 1): the rule, and a memo of it for views that can
 * version their pod sets.
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

  /** A pod list call of a view. */
  @FunctionalInterface
  public interface Lister {
    /** The pods, in the view's order. */
    Iterable<Pod> pods() throws ClusterApiException;
  }

  /**
   * {@link NewestPods#of} per (namespace, selector), recomputed only when the caller's version of that pod set
   * changes. The caller's contract: the version it passes changes whenever the pods the selector lists, or their
   * order, change, and pods' {@code creationTimestamp} and name never change in place. The memo then returns
   * what {@link NewestPods#of} over a fresh list would return (the same pod object).
   */
  public static final class Memo {

    private record Key(String namespace, List<SelectorExpression.Requirement> selector) {}

    private record Entry(long version, Optional<Pod> newest) {}

    private final Map<Key, Entry> entries = new HashMap<>();
    private long computed;

    /** The newest pod of {@code namespace} matching {@code selector}, listing the pods only when {@code version} changed. */
    public synchronized Optional<Pod> newest(String namespace, SelectorExpression selector, long version, Lister lister)
        throws ClusterApiException {
      Key key = new Key(namespace, selector.requirements());
      Entry e = entries.get(key);
      if (e != null && e.version() == version) {
        return e.newest();
      }
      Optional<Pod> newest = of(lister.pods());
      computed++;
      entries.put(key, new Entry(version, newest));
      return newest;
    }

    /** How many times the rule ran (lists taken), for tests and statistics. */
    public synchronized long computed() {
      return computed;
    }
  }
}
