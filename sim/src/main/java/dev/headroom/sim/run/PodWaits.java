package dev.headroom.sim.run;

import java.util.Arrays;

/**
 * Every real pod's wait in one run, in the order the waits ended (binding, deletion while pending, or the end of
 * the run): when the pod was created, how long it waited, in milliseconds of scenario time, and the workload (or
 * job) it belongs to. The value behind
 * pooled percentiles across seeds ({@link PooledResult}) and the wait attribution by episode ({@link Episodes}).
 */
public final class PodWaits {

  private final long[] created;
  private final long[] waits;
  private final String[] workloads;
  private long[] sorted;

  private PodWaits(long[] created, long[] waits, String[] workloads) {
    this.created = created;
    this.waits = waits;
    this.workloads = workloads;
  }

  /** No waits. */
  public static PodWaits empty() {
    return new PodWaits(new long[0], new long[0], new String[0]);
  }

  /** Waits from parallel arrays of creation times, waits and workload names (copied). */
  public static PodWaits of(long[] createdAt, long[] waits, String[] workloads) {
    if (createdAt.length != waits.length || workloads.length != waits.length) {
      throw new IllegalArgumentException("createdAt, waits and workloads differ in length");
    }
    return new PodWaits(createdAt.clone(), waits.clone(), workloads.clone());
  }

  /** Number of waits. */
  public int count() {
    return waits.length;
  }

  /** Creation time of the i-th pod (ms since the start). */
  public long createdAt(int i) {
    return created[i];
  }

  /** Wait of the i-th pod (ms). */
  public long wait(int i) {
    return waits[i];
  }

  /** The workload (or job) the i-th pod belongs to. */
  public String workload(int i) {
    return workloads[i];
  }

  /** The waits in ascending order (a shared array: do not modify). */
  public long[] sorted() {
    long[] s = sorted;
    if (s == null) {
      s = waits.clone();
      Arrays.sort(s);
      sorted = s;
    }
    return s;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof PodWaits p && Arrays.equals(created, p.created) && Arrays.equals(waits, p.waits)
        && Arrays.equals(workloads, p.workloads);
  }

  @Override
  public int hashCode() {
    return 31 * (31 * Arrays.hashCode(created) + Arrays.hashCode(waits)) + Arrays.hashCode(workloads);
  }

  @Override
  public String toString() {
    return "PodWaits[" + waits.length + " waits]";
  }

  /** Collects waits during a run. */
  public static final class Builder {
    private long[] created = new long[256];
    private long[] waits = new long[256];
    private String[] workloads = new String[256];
    private int size;

    /** Adds one pod's wait. */
    public void add(long createdAt, long wait, String workload) {
      if (size == waits.length) {
        created = Arrays.copyOf(created, size * 2);
        waits = Arrays.copyOf(waits, size * 2);
        workloads = Arrays.copyOf(workloads, size * 2);
      }
      created[size] = createdAt;
      workloads[size] = workload;
      waits[size++] = wait;
    }

    /** The collected waits. */
    public PodWaits build() {
      return new PodWaits(Arrays.copyOf(created, size), Arrays.copyOf(waits, size), Arrays.copyOf(workloads, size));
    }
  }
}
