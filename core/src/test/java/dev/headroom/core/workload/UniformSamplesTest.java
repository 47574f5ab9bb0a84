package dev.headroom.core.workload;

import static dev.headroom.core.workload.HpaFixtures.NOW;
import static dev.headroom.core.workload.HpaFixtures.hot;
import static dev.headroom.core.workload.HpaFixtures.pods;
import static dev.headroom.core.workload.HpaFixtures.unready;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.LongStream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A uniform sample reading ({@link MetricReading.PodSamples#uniform}) is the same reading as a map with an entry
 * per pod: the calculator proposes the same thing for either, with uniform or mixed requests, unready, warming
 * and unsampled pods, and samples of pods it does not list.
 */
class UniformSamplesTest {

  private static final HpaReplicaCalculator CALC = HpaReplicaCalculator.defaults();

  @ParameterizedTest(name = "seed {0}")
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void proposesWhatTheExplicitMapProposes(long seed) {
    Random r = new Random(seed);
    int n = 1 + r.nextInt(12);
    boolean mixed = r.nextInt(3) == 0;
    List<PodInfo> list = new ArrayList<>(pods(LongStream.range(0, n).map(i -> mixed ? 500 + 250 * r.nextInt(3) : 1000).toArray()));
    for (int i = 0; i < n; i++) {
      int kind = r.nextInt(6);
      if (kind == 0) {
        list.set(i, unready(list.get(i)));
      } else if (kind == 1) {
        list.set(i, hot(list.get(i)));
      }
    }
    Set<String> sampled = new LinkedHashSet<>();
    for (int i = 0; i < n; i++) {
      if (r.nextInt(4) != 0) {
        sampled.add("p" + i);
      }
    }
    if (r.nextBoolean()) {
      sampled.add("stranger");
    }
    PodSample sample = PodSample.of(200 + r.nextInt(1600), NOW);
    Map<String, PodSample> explicit = new LinkedHashMap<>();
    for (String pod : sampled) {
      explicit.put(pod, sample);
    }
    MetricReading.PodSamples uniform = MetricReading.PodSamples.uniform(sampled, sample);
    assertThat(uniform.samples()).isEqualTo(explicit);
    int current = n;
    HpaMetric metric = HpaMetric.resourceUtilization("cpu", 40 + r.nextInt(60));
    MetricProposal a = propose(metric, current, list, uniform);
    MetricProposal b = propose(metric, current, list, new MetricReading.PodSamples(explicit));
    assertThat(a).isEqualTo(b);
  }

  private static MetricProposal propose(HpaMetric metric, int current, List<PodInfo> pods, MetricReading reading) {
    return CALC.propose(NOW, metric, current, current, pods, reading, Tolerance.DEFAULT);
  }
}
