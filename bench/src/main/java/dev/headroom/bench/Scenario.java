package dev.headroom.bench;

/**
 * A named benchmark scenario of {@code headroom bench NAME [--pods N]}.
 *
 * <p>{@link #prepare} builds the inputs (fabric8 objects, seeded) outside the measurement;
 * {@link Prepared#run()} is the measured work and must be repeatable on fresh inputs, so the runner calls
 * {@link #prepare} again before every iteration.
 */
public interface Scenario {

  /** The name on the command line. */
  String name();

  /** Pod count used when {@code --pods} is not given. */
  int defaultPods();

  /** One-line description for the command's help. */
  String description();

  /** Builds the inputs for {@code pods} pods. */
  Prepared prepare(int pods);

  /**
   * This scenario over a catalogue of {@code types} instance types ({@code --types}).
   *
   * @throws IllegalArgumentException when the scenario has no catalogue or {@code types} is not positive
   */
  default Scenario withTypes(int types) {
    throw new IllegalArgumentException(name() + " has no instance-type catalogue (--types)");
  }

  /** Inputs ready to be run once. */
  interface Prepared {
    /** Runs the measured work. */
    Outcome run();
  }

  /**
   * What one run achieved.
   *
   * @param pods pods the scenario handled
   * @param placed pods that found a place
   * @param nodes nodes the result uses (new nodes for scale-up scenarios)
   * @param provisionedPerRequestedCpu CPU capacity of the new nodes over the CPU the placed pods request (NaN when
   *     the scenario adds no nodes)
   * @param podsPerZone pods placed on new nodes, by the zone of their node group (empty when not applicable)
   * @param metrics further figures of the scenario by name (empty for most; printed as {@code metrics} when not)
   */
  record Outcome(int pods, int placed, int nodes, double provisionedPerRequestedCpu, java.util.SortedMap<String, Integer> podsPerZone,
      java.util.SortedMap<String, Double> metrics) {

    public Outcome {
      podsPerZone = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(podsPerZone));
      metrics = java.util.Collections.unmodifiableSortedMap(new java.util.TreeMap<>(metrics));
    }

    /** An outcome without further metrics. */
    public Outcome(int pods, int placed, int nodes, double provisionedPerRequestedCpu, java.util.SortedMap<String, Integer> podsPerZone) {
      this(pods, placed, nodes, provisionedPerRequestedCpu, podsPerZone, new java.util.TreeMap<>());
    }

    /** An outcome without capacity figures. */
    public Outcome(int pods, int placed, int nodes) {
      this(pods, placed, nodes, Double.NaN, new java.util.TreeMap<>());
    }
  }
}
