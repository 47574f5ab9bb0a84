package dev.headroom.core.workload;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.BitSet;
import java.util.Collections;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * An immutable pod-name → sample map in which the pods at some positions of a pod list all report the same
 * sample. The key set is the names of the pods at the covered positions (in list order, each name once).
 *
 * <p>A metrics source that reports one value for the pods it has seen (the simulator's per-workload utilisation)
 * hands it to {@link MetricReading.PodSamples#uniform(List, BitSet, PodSample)}. When the calculator is given the
 * same pod list (the same immutable object), it reads coverage by position, with no lookup by name; every
 * other reader sees an ordinary map (the name set is built on first use).
 */
final class PositionalSamples extends AbstractMap<String, PodSample> {

  private final List<PodInfo> listed;
  /** The covered positions, as {@link BitSet#toLongArray()} words. */
  private final long[] covered;
  private final PodSample sample;
  /** The names of the covered pods, built on first use by a reader that looks up by name. */
  private volatile Set<String> names;

  PositionalSamples(List<PodInfo> listed, BitSet covered, PodSample sample) {
    this.listed = List.copyOf(listed);
    if (covered.length() > this.listed.size()) {
      throw new IllegalArgumentException(
          "coverage position " + (covered.length() - 1) + " is outside the " + this.listed.size() + " listed pods");
    }
    this.covered = covered.toLongArray();
    this.sample = Objects.requireNonNull(sample, "sample");
  }

  /** The pod list coverage refers to (immutable; identity is what the calculator compares). */
  List<PodInfo> listed() {
    return listed;
  }

  /** True when the pod at position {@code i} of {@link #listed()} reports the sample. */
  boolean covers(int i) {
    int w = i >>> 6;
    return w < covered.length && (covered[w] & (1L << i)) != 0;
  }

  /** How many covered positions are also set in {@code words} (a {@link BitSet#toLongArray()} form). */
  int coveredAmong(long[] words) {
    int n = 0;
    for (int w = Math.min(covered.length, words.length) - 1; w >= 0; w--) {
      n += Long.bitCount(covered[w] & words[w]);
    }
    return n;
  }

  /** The sample every covered pod reports. */
  PodSample sample() {
    return sample;
  }

  private Set<String> names() {
    Set<String> n = names;
    if (n == null) {
      Set<String> built = new LinkedHashSet<>();
      for (int i = 0; i < listed.size(); i++) {
        if (covers(i)) {
          built.add(listed.get(i).name());
        }
      }
      n = Collections.unmodifiableSet(built);
      names = n;
    }
    return n;
  }

  @Override
  public int size() {
    return names().size();
  }

  @Override
  public boolean containsKey(Object key) {
    return names().contains(key);
  }

  @Override
  public PodSample get(Object key) {
    return names().contains(key) ? sample : null;
  }

  @Override
  public Set<Map.Entry<String, PodSample>> entrySet() {
    Set<String> keys = names();
    return new AbstractSet<>() {
      @Override
      public int size() {
        return keys.size();
      }

      @Override
      public Iterator<Map.Entry<String, PodSample>> iterator() {
        Iterator<String> it = keys.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return it.hasNext();
          }

          @Override
          public Map.Entry<String, PodSample> next() {
            return Map.entry(it.next(), sample);
          }
        };
      }
    };
  }

  @Override
  public void forEach(BiConsumer<? super String, ? super PodSample> action) {
    for (String pod : names()) {
      action.accept(pod, sample);
    }
  }
}
