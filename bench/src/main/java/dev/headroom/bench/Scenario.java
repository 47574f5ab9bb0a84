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
   */
  record Outcome(int pods, int placed, int nodes) {}
}
