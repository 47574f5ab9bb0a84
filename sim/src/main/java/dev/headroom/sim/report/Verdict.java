package dev.headroom.sim.report;

import dev.headroom.sim.run.Episodes;
import dev.headroom.sim.run.PooledResult;
import dev.headroom.sim.run.SimulationReport;
import dev.headroom.sim.run.StrategyResult;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * What a run says to do, in one sentence, with the change of every strategy against the baseline and the
 * strategies that never took effect. A strategy <em>meets</em> the SLO when the upper end of its p99 interval
 * is within it (the rule {@code recommend} uses); the baseline is the first {@code none} strategy (else the
 * first strategy).
 */
public final class Verdict {

  private static final String[] DAYS = {"Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"};

  /**
   * One strategy against the baseline.
   *
   * @param name strategy
   * @param costChange relative change of the mean cost (0.18 = +18 %)
   * @param nodeHoursChange relative change of the mean node-hours
   * @param p99ChangeSeconds change of the pooled p99 wait
   * @param overSloChange change of the pods over the SLO (all seeds)
   * @param meetsSlo upper end of the p99 interval within the SLO
   * @param note why a strategy is flagged (empty: not flagged)
   */
  public record Change(String name, double costChange, double nodeHoursChange, double p99ChangeSeconds,
      int overSloChange, boolean meetsSlo, String note) {}

  /** The verdict: the sentence, the baseline, the per-strategy changes. */
  public record Result(String sentence, String baseline, Optional<String> best, List<Change> changes) {}

  private Verdict() {}

  /** The verdict of a report. */
  public static Result of(SimulationReport r) {
    List<PooledResult> pooled = r.pooled();
    int baseIndex = 0;
    for (int i = 0; i < pooled.size(); i++) {
      if ("none".equals(pooled.get(i).type())) {
        baseIndex = i;
        break;
      }
    }
    PooledResult base = pooled.get(baseIndex);
    long slo = Math.round(r.sloSeconds() * 1000);
    List<Change> changes = new ArrayList<>();
    for (PooledResult p : pooled) {
      changes.add(new Change(p.name(), relative(p.cost(), base.cost()), relative(p.nodeHours(), base.nodeHours()),
          (p.p99().value() - base.p99().value()) / 1000.0, p.podsOverSlo() - base.podsOverSlo(), p.p99().high() <= slo,
          note(p, base)));
    }
    Optional<PooledResult> best = pooled.stream().filter(p -> p.p99().high() <= slo)
        .min(Comparator.comparingDouble(PooledResult::cost));
    String sloText = seconds(r.sloSeconds()) + " SLO";
    StringBuilder s = new StringBuilder();
    if (best.isPresent() && best.get() == base) {
      s.append(base.name()).append(" already meets the ").append(sloText).append(" (p99 ")
          .append(secs(base.p99().value())).append(", at most ").append(secs(base.p99().high()))
          .append("): no reserve is needed");
    } else if (best.isPresent()) {
      PooledResult b = best.get();
      s.append(b.name()).append(" meets the ").append(sloText).append(" for ").append(percent(relative(b.cost(), base.cost())))
          .append(" cost against ").append(base.name()).append(" (p99 ").append(secs(b.p99().value()))
          .append(", at most ").append(secs(b.p99().high())).append(")");
      // the nearest miss: the most expensive failing strategy that is cheaper than the best, of the best's type
      // (a smaller buffer) when there is one
      Optional<PooledResult> miss = pooled.stream()
          .filter(p -> p != base && p.p99().high() > slo && p.cost() <= b.cost())
          .max(Comparator.comparing((PooledResult p) -> p.type().equals(b.type()))
              .thenComparingDouble(PooledResult::cost));
      miss.ifPresent(m -> s.append("; ").append(shortfall(r, m)));
    } else {
      PooledResult closest = pooled.stream().min(Comparator.comparingLong((PooledResult p) -> p.p99().high())
          .thenComparingDouble(PooledResult::cost)).orElseThrow();
      s.append("No strategy meets the ").append(sloText).append("; the closest is ").append(closest.name())
          .append(" (p99 ").append(secs(closest.p99().value())).append(", at most ").append(secs(closest.p99().high()))
          .append(", ").append(percent(relative(closest.cost(), base.cost()))).append(" cost)");
      s.append("; ").append(shortfall(r, closest));
    }
    return new Result(s.append('.').toString(), base.name(), best.map(PooledResult::name), changes);
  }

  /** Why a strategy is flagged: a buffer that never held a replica, or one that changed nothing. */
  static String note(PooledResult p, PooledResult base) {
    if (!"buffer".equals(p.type())) {
      return "";
    }
    if (p.peakBufferReplicas() == 0) {
      return "never took effect: the buffer's status.replicas stayed 0";
    }
    if (p != base && p.cost() == base.cost() && p.p99().equals(base.p99()) && p.podsOverSlo() == base.podsOverSlo()) {
      return "took no effect: the buffer fitted in free capacity and changed neither waits nor cost";
    }
    return "";
  }

  /**
   * The verdict's clause on a strategy that misses the SLO, from its first seed's attribution: "buffer-10pct is too
   * small for web in the scale-up at 20:05, which needed 26 extra pods with its buffer (web-buffer) at 5 (...)". A
   * buffer strategy is blamed only for the workloads its buffers target; waits of the others are named as not
   * covered by any buffer ("misses it only through batch, which is not covered by any buffer: ...").
   */
  public static String shortfall(SimulationReport r, String strategy) {
    return shortfall(r, r.pooled().stream().filter(p -> p.name().equals(strategy)).findFirst()
        .orElseThrow(() -> new IllegalArgumentException("no strategy " + strategy)));
  }

  private static String shortfall(SimulationReport r, PooledResult m) {
    StrategyResult first = r.strategies().stream().filter(x -> x.name().equals(m.name())).findFirst().orElseThrow();
    boolean buffer = "buffer".equals(m.type());
    StringBuilder b = new StringBuilder(m.name());
    Optional<Blame> covered = worst(first.episodes(), true);
    Optional<Blame> any = worst(first.episodes(), false);
    if (any.isEmpty()) {
      return b.append(" misses it (p99 at most ").append(secs(m.p99().high())).append(")").toString();
    }
    String seed = r.seeds().size() > 1 ? ", seed " + r.seed() : "";
    if (!buffer) {
      Blame w = any.get();
      return b.append(" falls short for ").append(w.share().workload()).append(" in the scale-up at ")
          .append(clock(w.episode().startMillis(), r.durationSeconds())).append(", which needed ")
          .append(pods(w.share().peakPending())).append(" (").append(figures(w.share())).append(seed).append(")").toString();
    }
    if (covered.isPresent()) {
      Blame w = covered.get();
      Episodes.Share s = w.share();
      b.append(" is too small for ").append(s.workload()).append(" in the scale-up at ")
          .append(clock(w.episode().startMillis(), r.durationSeconds())).append(", which needed ")
          .append(pods(s.peakPending())).append(" with its buffer (").append(String.join(", ", s.buffers()))
          .append(") at ").append(s.bufferReplicas()).append(" (").append(figures(s)).append(seed).append(")");
      List<String> uncovered = uncovered(first.episodes());
      if (!uncovered.isEmpty()) {
        b.append("; ").append(String.join(" and ", uncovered)).append(uncovered.size() == 1 ? " is " : " are ")
            .append(Episodes.NOT_COVERED);
      }
      return b.toString();
    }
    Blame w = any.get();
    return b.append(" misses it only through ").append(w.share().workload()).append(", which is ").append(Episodes.NOT_COVERED).append(": ")
        .append("its scale-up at ").append(clock(w.episode().startMillis(), r.durationSeconds())).append(" needed ")
        .append(pods(w.share().peakPending())).append(" (").append(figures(w.share())).append(seed).append(")").toString();
  }

  private static String pods(int n) {
    return n + " extra pod" + (n == 1 ? "" : "s");
  }

  private static String figures(Episodes.Share s) {
    return s.podsOverSlo() + " pod" + (s.podsOverSlo() == 1 ? "" : "s") + " over the SLO, up to " + secs(s.maxWaitMillis());
  }

  /** The workloads without a buffer that had pods over the SLO, most such pods first (at most two). */
  private static List<String> uncovered(List<Episodes.Episode> episodes) {
    java.util.Map<String, Integer> over = new java.util.TreeMap<>();
    for (Episodes.Episode e : episodes) {
      for (Episodes.Share s : e.workloads()) {
        if (!s.covered() && s.podsOverSlo() > 0) {
          over.merge(s.workload(), s.podsOverSlo(), Integer::sum);
        }
      }
    }
    return over.entrySet().stream().sorted(java.util.Map.Entry.<String, Integer>comparingByValue().reversed())
        .limit(2).map(java.util.Map.Entry::getKey).toList();
  }

  /** One workload's waits in one episode: what a verdict blames. */
  public record Blame(Episodes.Episode episode, Episodes.Share share) {}

  /**
   * The (episode, workload) with the most pods over the SLO, then the longest wait, then the earliest; with
   * {@code coveredOnly}, among the workloads a buffer targets.
   */
  public static Optional<Blame> worst(List<Episodes.Episode> episodes, boolean coveredOnly) {
    return episodes.stream().flatMap(e -> e.workloads().stream().map(s -> new Blame(e, s)))
        .filter(x -> x.share().podsOverSlo() > 0 && (!coveredOnly || x.share().covered()))
        .max(Comparator.comparingInt((Blame x) -> x.share().podsOverSlo())
            .thenComparingLong(x -> x.share().maxWaitMillis())
            .thenComparing(Comparator.comparingLong((Blame x) -> x.episode().startMillis()).reversed()));
  }

  /** Scenario time as {@code HH:MM} (runs up to a day) or {@code Tue 14:05} (longer runs; the epoch is a Monday). */
  public static String clock(long millis, long durationSeconds) {
    long minutes = millis / 60_000;
    String hm = String.format("%02d:%02d", (minutes / 60) % 24, minutes % 60);
    if (durationSeconds <= 86_400) {
      return hm;
    }
    return DAYS[(int) ((minutes / 1440) % 7)] + " " + hm;
  }

  static double relative(double v, double base) {
    return base == 0 ? 0 : v / base - 1;
  }

  static String percent(double change) {
    long p = Math.round(change * 100);
    return (p >= 0 ? "+" : "") + p + " %";
  }

  private static String secs(long millis) {
    return Numbers.fixed(millis / 1000.0, 1) + " s";
  }

  private static String seconds(double s) {
    return Numbers.plain(s, 1) + " s";
  }
}
