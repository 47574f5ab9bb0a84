package dev.headroom.sim.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * The pods that changed, in order, as an API server's watch would deliver them: one entry per creation,
 * in-place change or deletion (a pod's state tells which). A reader asks for the entries after its cursor;
 * entries before the oldest cursor asked for are dropped, so the log holds only what its one reader (the
 * autoscaler) has not seen yet.
 */
public final class PodChangeLog {

  /** Beyond this many unread entries the log is dropped and its reader starts over with a full read. */
  static final int MAX_ENTRIES = 1_000_000;

  private final ArrayList<SimPod> entries = new ArrayList<>();
  private long first;

  void add(SimPod p) {
    if (entries.size() >= MAX_ENTRIES) {
      first += entries.size();
      entries.clear();
    }
    entries.add(p);
  }

  /** The cursor after the newest entry. */
  public long cursor() {
    return first + entries.size();
  }

  /**
   * The entries after {@code cursor} (oldest first), dropping those before it; null when the log no longer
   * holds them.
   */
  public List<SimPod> since(long cursor) {
    if (cursor < first || cursor > cursor()) {
      return null;
    }
    int from = (int) (cursor - first);
    List<SimPod> out = new ArrayList<>(entries.subList(from, entries.size()));
    entries.subList(0, from).clear();
    first = cursor;
    return out;
  }
}
