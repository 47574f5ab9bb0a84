package dev.headroom.core.scheduling;

/** Outcome of {@link ClusterSnapshot#schedulePodOnAnyNode}: the chosen node, or no fit. */
public sealed interface Placement permits Placement.Placed, Placement.NoFit {

  /** The shared no-fit outcome; ask {@link ClusterSnapshot#diagnose} for the reasons. */
  Placement NO_FIT = new NoFit();

  /** True when the pod was placed. */
  boolean placed();

  /** The pod was added to node {@code nodeIndex} named {@code nodeName}. */
  record Placed(int nodeIndex, String nodeName) implements Placement {
    @Override
    public boolean placed() {
      return true;
    }
  }

  /** No acceptable node passed every predicate; the snapshot is unchanged. */
  record NoFit() implements Placement {
    @Override
    public boolean placed() {
      return false;
    }
  }
}
