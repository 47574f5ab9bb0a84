package dev.headroom.core.buffer;

/**
 * Settings of the buffer translation (spec §0.3).
 *
 * @param countPods [H-EXT] §5.6: add {@code pods: 1} and {@code count/pods: 1} to every chunk's quota request
 *     vector (setting {@code buffers.quota.countPods}, default true)
 * @param standbyCapacity [H-EXT] the controller also processes buffers of the standby strategy
 *     ({@link BufferConditions#STRATEGY_STANDBY_CAPACITY}; {@code --standby-capacity}, default false)
 */
public record BufferSettings(boolean countPods, boolean standbyCapacity) {

  /** Settings without the standby strategy. */
  public BufferSettings(boolean countPods) {
    this(countPods, false);
  }

  /** Headroom's defaults. */
  public static BufferSettings defaults() {
    return new BufferSettings(true, false);
  }

  /** These settings with the standby strategy on or off. */
  public BufferSettings withStandbyCapacity(boolean on) {
    return new BufferSettings(countPods, on);
  }
}
