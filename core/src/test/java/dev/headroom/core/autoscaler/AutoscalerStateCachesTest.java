package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static dev.headroom.core.autoscaler.Fixtures.group;
import static dev.headroom.core.autoscaler.Fixtures.pod;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Pod;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/**
 * The caches a loop keeps for the next one live in {@link AutoscalerState}, tied to the autoscaler that filled them:
 * the same autoscaler finds them again, and a state handed to another autoscaler (another view, another change log)
 * starts them afresh, so it decides as a new state with the same memory would.
 */
class AutoscalerStateCachesTest {

  private static final AutoscalerOptions OPTIONS = AutoscalerOptions.DEFAULTS;

  @Test
  void theSameAutoscalerFindsItsCachesAgainAndAnotherOneGetsFreshOnes() {
    AutoscalerState state = new AutoscalerState(OPTIONS);
    Object a = new Object();
    Object b = new Object();
    AutoscalerState.Caches first = state.caches(a);
    assertThat(state.caches(a)).isSameAs(first);
    AutoscalerState.Caches other = state.caches(b);
    assertThat(other).isNotSameAs(first);
    assertThat(state.caches(a)).isNotSameAs(first).isNotSameAs(other);
  }

  @Test
  void aStateHandedToAnotherAutoscalerReadsItsViewAfresh() {
    // the first view's change log leaves the state's pod index at cursor 2; the second view's log is longer, so a
    // kept index would read only the second view's last entries on top of the first view's pods
    IncrementalLoadEquivalenceTest.LoggingWorld first = world("a", 2);
    AutoscalerState state = new AutoscalerState(OPTIONS);
    Instant t1 = T0.plusSeconds(30);
    autoscaler(first, state).runOnce(t1);
    AutoscalerState control = new AutoscalerState(OPTIONS);
    control.restore(state.memory());

    IncrementalLoadEquivalenceTest.LoggingWorld second = world("b", 5);
    IncrementalLoadEquivalenceTest.LoggingWorld secondAgain = world("b", 5);
    Instant t2 = T0.plusSeconds(60);
    IterationResult handed = autoscaler(second, state).runOnce(t2);
    IterationResult fresh = autoscaler(secondAgain, control).runOnce(t2);

    assertThat(handed).isEqualTo(fresh);
    assertThat(handed.unschedulablePods()).isEmpty();
    assertThat(handed.pendingPods().total()).isEqualTo(5);
    assertThat(handed.pendingPods().onNewNodes()).isEqualTo(5);
    assertThat(second.calls).isEqualTo(secondAgain.calls).isNotEmpty();
  }

  private static Autoscaler autoscaler(IncrementalLoadEquivalenceTest.LoggingWorld w, AutoscalerState state) {
    return new Autoscaler(OPTIONS, w, w, w, w, state, SnapshotSimulation::new);
  }

  /** One Ready 1-CPU node of group {@code ng} and {@code pending} pending 2-CPU pods, every pod in the change log. */
  private static IncrementalLoadEquivalenceTest.LoggingWorld world(String prefix, int pending) {
    IncrementalLoadEquivalenceTest.LoggingWorld w = new IncrementalLoadEquivalenceTest.LoggingWorld();
    w.group(group("ng", 0, 10, 1, "1", "4Gi")).group(group("big", 0, 10, 0, "4", "16Gi"));
    w.registerNodes("ng", true, T0.minusSeconds(3600));
    for (int i = 0; i < pending; i++) {
      Pod p = pod(prefix + "-" + i, "2", "1Gi", null);
      w.pods.add(p);
      w.changed(p);
    }
    return w;
  }
}
