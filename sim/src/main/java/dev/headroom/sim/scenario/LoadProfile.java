package dev.headroom.sim.scenario;

import java.util.List;

/**
 * Arrival rate of a workload over scenario time, in requests (or queue items) per second.
 * Profiles are pure functions of time; random noise is added by the load model with its own seeded stream.
 */
public sealed interface LoadProfile {

  /** The arrival rate at a scenario time (seconds since start). */
  double rateAt(double seconds);

  /** The same rate for the whole run. */
  record Constant(double rate) implements LoadProfile {
    @Override
    public double rateAt(double seconds) {
      return rate;
    }
  }

  /** A piecewise-constant rate: {@code initial} until the first step, then each step's rate from its time on. */
  record Step(double initial, List<Point> steps) implements LoadProfile {
    public Step {
      steps = List.copyOf(steps);
    }

    @Override
    public double rateAt(double seconds) {
      double r = initial;
      for (Point p : steps) {
        if (seconds >= p.seconds()) {
          r = p.rate();
        }
      }
      return r;
    }
  }

  /** A base rate with spikes; each spike ramps linearly to its rate over {@code rampSeconds}, holds, and ramps back. */
  record Spikes(double base, List<Spike> spikes) implements LoadProfile {
    public Spikes {
      spikes = List.copyOf(spikes);
    }

    @Override
    public double rateAt(double seconds) {
      return Spike.on(base, spikes, seconds);
    }
  }

  /**
   * A daily cycle: {@code min} at the trough, {@code max} at {@code peakSeconds} past midnight, following a
   * cosine over {@code periodSeconds} (one day by default), with optional spikes on top: each ramps linearly
   * from the cycle's rate to its own {@code rate} over {@code rampSeconds}, holds, and ramps back (never below
   * the cycle).
   */
  record Diurnal(double min, double max, double peakSeconds, double periodSeconds, List<Spike> spikes)
      implements LoadProfile {
    public Diurnal {
      spikes = List.copyOf(spikes);
    }

    /** A cycle without spikes. */
    public Diurnal(double min, double max, double peakSeconds, double periodSeconds) {
      this(min, max, peakSeconds, periodSeconds, List.of());
    }

    @Override
    public double rateAt(double seconds) {
      double phase = 2 * Math.PI * (seconds - peakSeconds) / periodSeconds;
      double cycle = min + (max - min) * (1 + Math.cos(phase)) / 2;
      return Spike.on(cycle, spikes, seconds);
    }
  }

  /** A recorded trace: linear interpolation between {@code (time, rate)} points, held flat outside them. */
  record Trace(String source, List<Point> points) implements LoadProfile {
    public Trace {
      points = List.copyOf(points);
    }

    @Override
    public double rateAt(double seconds) {
      if (points.isEmpty()) {
        return 0;
      }
      if (seconds <= points.get(0).seconds()) {
        return points.get(0).rate();
      }
      int lo = 0;
      int hi = points.size() - 1;
      if (seconds >= points.get(hi).seconds()) {
        return points.get(hi).rate();
      }
      while (hi - lo > 1) {
        int mid = (lo + hi) >>> 1;
        if (points.get(mid).seconds() <= seconds) {
          lo = mid;
        } else {
          hi = mid;
        }
      }
      Point a = points.get(lo);
      Point b = points.get(hi);
      double f = (seconds - a.seconds()) / (b.seconds() - a.seconds());
      return a.rate() + (b.rate() - a.rate()) * f;
    }
  }

  /** A time (seconds since start) and a rate. */
  record Point(double seconds, double rate) {}

  /** A spike of {@code rate} starting at {@code atSeconds} for {@code durationSeconds}. */
  record Spike(double atSeconds, double durationSeconds, double rate, double rampSeconds) {
    /** The rate with the spikes applied on top of {@code base} (the rate without them) at a time. */
    static double on(double base, List<Spike> spikes, double seconds) {
      double r = base;
      for (Spike s : spikes) {
        double into = seconds - s.atSeconds();
        if (into < 0 || into >= s.durationSeconds()) {
          continue;
        }
        double f = 1.0;
        if (s.rampSeconds() > 0) {
          f = Math.min(1.0, Math.min(into / s.rampSeconds(), (s.durationSeconds() - into) / s.rampSeconds()));
        }
        r = Math.max(r, base + (s.rate() - base) * f);
      }
      return r;
    }
  }
}
