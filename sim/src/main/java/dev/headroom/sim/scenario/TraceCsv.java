package dev.headroom.sim.scenario;

import dev.headroom.core.nodegroup.GoDuration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reader of load traces: a CSV file with a {@code time,rate} header, one point per line, time in seconds
 * (a number) or a duration such as {@code 90s}, rate in arrivals per second. Blank lines and lines starting
 * with {@code #} are ignored. Errors are reported as {@code FILE:LINE}.
 */
public final class TraceCsv {

  private TraceCsv() {}

  /** Parses trace lines; {@code scale} multiplies every rate. */
  public static LoadProfile.Trace parse(String file, List<String> lines, double scale) {
    try {
      return parse(file, new java.io.BufferedReader(new java.io.StringReader(String.join("\n", lines))), scale);
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /**
   * Parses a trace row by row from {@code in} (the text is never held whole, so a trace of millions of rows loads in
   * the memory of its points); {@code scale} multiplies every rate.
   */
  public static LoadProfile.Trace parse(String file, java.io.BufferedReader in, double scale) throws java.io.IOException {
    List<LoadProfile.Point> points = new ArrayList<>();
    boolean header = false;
    double last = Double.NEGATIVE_INFINITY;
    int no = 0;
    for (String raw = in.readLine(); raw != null; raw = in.readLine()) {
      String line = (no == 0 ? dev.headroom.core.input.InputText.stripBom(raw) : raw).strip();
      no++;
      if (line.isEmpty() || line.startsWith("#")) {
        continue;
      }
      String[] parts = line.split(",", -1);
      if (!header) {
        if (parts.length != 2 || !parts[0].strip().equals("time") || !parts[1].strip().equals("rate")) {
          throw new ScenarioException(file, no, "the first line must be the header time,rate");
        }
        header = true;
        continue;
      }
      if (parts.length != 2) {
        throw new ScenarioException(file, no, "expected two columns time,rate, found " + parts.length);
      }
      double t = time(file, no, parts[0].strip());
      double rate;
      try {
        rate = Double.parseDouble(parts[1].strip());
      } catch (NumberFormatException e) {
        throw new ScenarioException(file, no, "rate \"" + parts[1].strip() + "\" is not a number");
      }
      if (!Double.isFinite(rate) || rate < 0) {
        throw new ScenarioException(file, no, "rate must be a number >= 0");
      }
      if (t <= last) {
        throw new ScenarioException(file, no, "times must increase (" + parts[0].strip() + " is not after the previous line)");
      }
      last = t;
      points.add(new LoadProfile.Point(t, rate * scale));
    }
    if (points.isEmpty()) {
      throw new ScenarioException(file, Math.max(1, no), "the trace has no points");
    }
    return new LoadProfile.Trace(file, points);
  }

  private static double time(String file, int no, String text) {
    try {
      double d = Double.parseDouble(text);
      if (Double.isFinite(d) && d >= 0) {
        return d;
      }
    } catch (NumberFormatException e) {
      // try a duration below
    }
    try {
      return GoDuration.parseWithDays(text).toMillis() / 1000.0;
    } catch (IllegalArgumentException e) {
      throw new ScenarioException(file, no, "time \"" + text + "\" is neither seconds nor a duration such as 90s");
    }
  }
}
