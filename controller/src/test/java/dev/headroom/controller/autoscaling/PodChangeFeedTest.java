package dev.headroom.controller.autoscaling;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.ClusterView;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;

class PodChangeFeedTest {

  private static Pod pod(String name, String version) {
    return new PodBuilder().withNewMetadata().withName(name).withNamespace("ns").withUid(name + "-uid")
        .withResourceVersion(version).endMetadata().build();
  }

  @Test
  void reportsTheLatestStateOfEachChangedPodSinceACursor() {
    PodChangeFeed feed = new PodChangeFeed();
    long start = feed.since(-1).orElseThrow().cursor();
    Pod a1 = pod("a", "1");
    Pod a2 = pod("a", "2");
    Pod b = pod("b", "3");
    feed.onAdd(a1);
    feed.onAdd(b);
    feed.onUpdate(a1, a2);
    ClusterView.PodChanges first = feed.since(start).orElseThrow();
    assertThat(first.changed()).as("each pod once, at its first change, in its latest state").containsExactly(a2, b);
    assertThat(first.deleted()).isEmpty();

    feed.onDelete(b, false);
    ClusterView.PodChanges second = feed.since(first.cursor()).orElseThrow();
    assertThat(second.changed()).isEmpty();
    assertThat(second.deleted()).containsExactly("b-uid");
    assertThat(feed.since(second.cursor()).orElseThrow().changed()).isEmpty();
  }

  @Test
  void aCursorWhoseEntriesWereDroppedAsksForAFullRead() {
    PodChangeFeed feed = new PodChangeFeed();
    feed.onAdd(pod("a", "1"));
    long after = feed.since(-1).orElseThrow().cursor();
    feed.onAdd(pod("b", "2"));
    assertThat(feed.since(after)).isPresent();
    // entries before the newest cursor asked for are gone
    assertThat(feed.since(0)).isEmpty();
  }
}
