package dev.headroom.core.buffer;

/**
 * Settings of the buffer translation (spec §0.3).
 *
 * @param countPods [H-EXT] §5.6: add {@code pods: 1} and {@code count/pods: 1} to every chunk's quota request
 *     vector (setting {@code buffers.quota.countPods}, default true)
 */
public record BufferSettings(boolean countPods) {

  /** Headroom's defaults. */
  public static BufferSettings defaults() {
    return new BufferSettings(true);
  }
}
