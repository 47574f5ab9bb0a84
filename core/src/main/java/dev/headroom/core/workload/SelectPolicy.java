package dev.headroom.core.workload;

/** How several scaling policies of one direction combine. */
public enum SelectPolicy {
  /** The policy allowing the largest change (the default). */
  MAX,
  /** The policy allowing the smallest change. */
  MIN,
  /** No scaling in this direction. */
  DISABLED
}
