package dev.headroom.core.workload;

import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;

/**
 * An immutable pod-name → sample map in which every pod reports the same sample: O(1) to build over a key set
 * the caller keeps. A metrics source that reports one value for a set of pods (the simulator's per-workload
 * utilisation) hands it to {@link MetricReading.PodSamples#uniform} instead of a map with an entry per pod.
 */
final class UniformSamples extends AbstractMap<String, PodSample> {

  private final Set<String> pods;
  private final PodSample sample;

  UniformSamples(Set<String> pods, PodSample sample) {
    this.pods = Set.copyOf(pods);
    this.sample = sample;
  }

  @Override
  public int size() {
    return pods.size();
  }

  @Override
  public boolean containsKey(Object key) {
    return pods.contains(key);
  }

  @Override
  public PodSample get(Object key) {
    return pods.contains(key) ? sample : null;
  }

  @Override
  public Set<Map.Entry<String, PodSample>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public int size() {
        return pods.size();
      }

      @Override
      public Iterator<Map.Entry<String, PodSample>> iterator() {
        Iterator<String> names = pods.iterator();
        return new Iterator<>() {
          @Override
          public boolean hasNext() {
            return names.hasNext();
          }

          @Override
          public Map.Entry<String, PodSample> next() {
            return Map.entry(names.next(), sample);
          }
        };
      }
    };
  }

  @Override
  public void forEach(java.util.function.BiConsumer<? super String, ? super PodSample> action) {
    for (String pod : pods) {
      action.accept(pod, sample);
    }
  }
}
