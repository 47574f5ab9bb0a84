package dev.headroom.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The registry of bench scenarios, in the order the help lists them. */
public final class Scenarios {

  private Scenarios() {}

  /** Every scenario. Add new ones here. */
  public static List<Scenario> all() {
    List<Scenario> out = new ArrayList<>();
    out.add(new KarpenterDiverse());
    out.add(new RunOnceScaleUp());
    out.add(new RunOnceScaleDown());
    out.add(new ScaleDownEfficiency());
    out.add(new BufferedCluster());
    return out;
  }

  /** The scenario named {@code name}. */
  public static Optional<Scenario> byName(String name) {
    return all().stream().filter(s -> s.name().equals(name)).findFirst();
  }
}
