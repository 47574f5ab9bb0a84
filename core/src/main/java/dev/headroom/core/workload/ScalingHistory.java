package dev.headroom.core.workload;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The per-workload memory the HPA normalisation needs: past recommendations (for stabilisation windows)
 * and past scale events, one list per direction (for rate-limit periods). Mutable; one per workload.
 */
public final class ScalingHistory {

  /** A past (unstabilised) recommendation. */
  public record TimedRecommendation(int replicas, Instant at) {
    public TimedRecommendation {
      Objects.requireNonNull(at, "at");
    }
  }

  /** A past scale change of {@code change} replicas (absolute) in one direction. */
  public record ScaleEvent(int change, Instant at, boolean outdated) {
    public ScaleEvent {
      Objects.requireNonNull(at, "at");
    }
  }

  private final List<TimedRecommendation> recommendations = new ArrayList<>();
  private final List<ScaleEvent> scaleUpEvents = new ArrayList<>();
  private final List<ScaleEvent> scaleDownEvents = new ArrayList<>();

  /** An empty history. */
  public ScalingHistory() {}

  /** Adds a past recommendation (for replaying a known history). */
  public ScalingHistory recommendation(int replicas, Instant at) {
    recommendations.add(new TimedRecommendation(replicas, at));
    return this;
  }

  /** Adds a past scale-up event. */
  public ScalingHistory scaleUp(int change, Instant at) {
    scaleUpEvents.add(new ScaleEvent(change, at, false));
    return this;
  }

  /** Adds a past scale-down event. */
  public ScalingHistory scaleDown(int change, Instant at) {
    scaleDownEvents.add(new ScaleEvent(change, at, false));
    return this;
  }

  /** The recommendations, oldest slot first (slots are reused). */
  public List<TimedRecommendation> recommendations() {
    return List.copyOf(recommendations);
  }

  /** The scale-up events. */
  public List<ScaleEvent> scaleUpEvents() {
    return List.copyOf(scaleUpEvents);
  }

  /** The scale-down events. */
  public List<ScaleEvent> scaleDownEvents() {
    return List.copyOf(scaleDownEvents);
  }

  List<TimedRecommendation> mutableRecommendations() {
    return recommendations;
  }

  /**
   * Records a scale from {@code previous} to {@code next}: events older than the direction's longest policy
   * period are marked outdated and one outdated slot is reused.
   */
  void recordScaleEvent(int previous, int next, Instant now, Behavior behavior) {
    if (next == previous) {
      return;
    }
    boolean up = next > previous;
    List<ScaleEvent> events = up ? scaleUpEvents : scaleDownEvents;
    int longest = (up ? behavior.scaleUp() : behavior.scaleDown()).longestPeriodSeconds();
    Instant cutoff = now.minusSeconds(longest);
    int reuse = -1;
    for (int i = 0; i < events.size(); i++) {
      ScaleEvent e = events.get(i);
      if (e.outdated() || e.at().isBefore(cutoff)) {
        events.set(i, new ScaleEvent(e.change(), e.at(), true));
        reuse = i;
      }
    }
    ScaleEvent event = new ScaleEvent(Math.abs(next - previous), now, false);
    if (reuse >= 0) {
      events.set(reuse, event);
    } else {
      events.add(event);
    }
  }
}
