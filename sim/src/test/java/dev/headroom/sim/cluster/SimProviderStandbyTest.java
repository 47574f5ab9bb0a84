package dev.headroom.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import dev.headroom.core.autoscaler.NodeGroupProvider;
import dev.headroom.core.autoscaler.NodeGroupProvider.StandbyPool;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import dev.headroom.sim.engine.EventQueue;
import dev.headroom.sim.engine.SimRandom;
import dev.headroom.sim.engine.VirtualClock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The simulator provider's standby pool (the standby methods of {@link NodeGroupProvider}): launching to the target,
 * resuming suspended instances first, the replacement, dropping a surplus, and the standby price in the cost.
 */
class SimProviderStandbyTest {

  static final double PRICE = 0.5;
  static final double STANDBY_PRICE = 0.05;
  static final long DELAY = 90_000;
  static final long RESUME = 20_000;

  final EventQueue events = new EventQueue(new VirtualClock());
  final SimCluster cluster = new SimCluster(events, (pod, wait, bound) -> {});
  final CostLedger ledger = new CostLedger();

  static NodeGroup group(String name, boolean standby) {
    Map<String, Object> spec = new LinkedHashMap<>();
    spec.put("minSize", 0);
    spec.put("maxSize", 6);
    spec.put("targetSize", 1);
    spec.put("price", PRICE);
    spec.put("provisioningDelay", "90s");
    if (standby) {
      spec.put("standby", Map.of("resumeDelay", "20s", "price", STANDBY_PRICE));
    }
    spec.put("template", Map.of("status", Map.of("capacity", Map.of("cpu", "4", "memory", "16Gi"))));
    return NodeGroupDocument.parse(Map.of("apiVersion", NodeGroupDocument.API_VERSION, "kind", NodeGroupDocument.KIND,
        "metadata", Map.of("name", name), "spec", spec));
  }

  SimProvider provider(Duration jitter) {
    SimProvider p = new SimProvider(cluster, List.of(group("general", true), group("plain", false)), new SimRandom(7).stream("provider"),
        jitter, ledger);
    p.bootstrap();
    return p;
  }

  void runTo(long millis) {
    events.runUntil(millis);
  }

  List<SimNode> nodes(String group) {
    List<SimNode> out = new ArrayList<>();
    for (SimNode n : cluster.nodes()) {
      if (n.group().equals(group)) {
        out.add(n);
      }
    }
    return out;
  }

  @Test
  void theProviderCanKeepStandbyNodesAndNoNodeObjectIsOne() {
    SimProvider p = provider(Duration.ZERO);
    assertThat(p.standbyUnsupported()).isEmpty();
    p.setStandbyTarget("general", 2);
    assertThat(cluster.nodes()).hasSize(2).allSatisfy(n -> assertThat(p.isStandby(n.node())).isFalse());
    assertThat(p.nodeGroups()).filteredOn(g -> g.id().equals("general")).singleElement()
        .satisfies(g -> assertThat(g.standby()).isEqualTo(new NodeGroup.Standby(Duration.ofSeconds(20), STANDBY_PRICE)));
  }

  @Test
  void aDeficitLaunchesInstancesThatAreSuspendedAfterTheProvisioningDelay() {
    SimProvider p = provider(Duration.ZERO);
    runTo(10_000);
    p.setStandbyTarget("general", 3);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(3, 0, 3));
    // standby instances are not in the group's target size and are no nodes of the cluster
    assertThat(p.targetSize("general")).isEqualTo(1);
    assertThat(nodes("general")).hasSize(1);
    runTo(10_000 + DELAY - 1);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(3, 0, 3));
    runTo(10_000 + DELAY);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(3, 3, 0));
    assertThat(p.standbyPool("plain")).isEqualTo(new StandbyPool(0, 0, 0));
  }

  @Test
  void instancesRequestedAtTimeZeroAreSuspendedAtOnceAsTheBootstrapNodesAreReady() {
    SimProvider p = provider(Duration.ofSeconds(15));
    p.setStandbyTarget("general", 2);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 2, 0));
  }

  @Test
  void increaseSizeResumesSuspendedInstancesFirstThenCreatesNodesAndThePoolRefills() {
    SimProvider p = provider(Duration.ZERO);
    p.setStandbyTarget("general", 2);
    runTo(1_000);
    p.increaseSize("general", 3);
    // the target counts the resumed instances at once
    assertThat(p.targetSize("general")).isEqualTo(4);
    List<SimNode> added = nodes("general").subList(1, 4);
    assertThat(added).extracting(SimNode::resumed).containsExactly(true, true, false);
    assertThat(added).allSatisfy(n -> assertThat(n.ready()).isFalse());
    // two replacements are initialising
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 0, 2));
    runTo(1_000 + RESUME);
    assertThat(added).extracting(SimNode::ready).containsExactly(true, true, false);
    assertThat(added).extracting(SimNode::readyAt).containsExactly(1_000 + RESUME, 1_000 + RESUME, -1L);
    runTo(1_000 + DELAY);
    assertThat(added.get(2).ready()).isTrue();
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 2, 0));
  }

  @Test
  void aReplacementCannotBeResumedBeforeItHasInitialised() {
    SimProvider p = provider(Duration.ZERO);
    p.setStandbyTarget("general", 1);
    runTo(1_000);
    p.increaseSize("general", 1);
    runTo(2_000);
    p.increaseSize("general", 1);
    assertThat(nodes("general")).extracting(SimNode::resumed).containsExactly(false, true, false);
    runTo(1_000 + DELAY);
    p.increaseSize("general", 1);
    assertThat(nodes("general").get(3).resumed()).isTrue();
  }

  @Test
  void theMaximumSizeHoldsWhateverThePool() {
    SimProvider p = provider(Duration.ZERO);
    p.setStandbyTarget("general", 6);
    assertThatThrownBy(() -> p.increaseSize("general", 6)).isInstanceOf(NodeGroupProvider.ProviderException.class)
        .hasMessageContaining("max 6");
    p.increaseSize("general", 5);
    assertThat(p.targetSize("general")).isEqualTo(6);
  }

  @Test
  void aSurplusDropsInitialisingInstancesFirstNewestFirst() {
    SimProvider p = provider(Duration.ZERO);
    p.setStandbyTarget("general", 1);                       // A, suspended at once
    runTo(10_000);
    p.setStandbyTarget("general", 2);                       // B, suspended at 100 s
    runTo(50_000);
    p.setStandbyTarget("general", 3);                       // C, suspended at 140 s
    runTo(60_000);
    p.setStandbyTarget("general", 2);                       // drops C, the newest initialising one
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 1, 1));
    runTo(100_000);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(2, 2, 0));
    runTo(200_000);
    p.setStandbyTarget("general", 3);                       // D, suspended at 290 s
    runTo(210_000);
    p.setStandbyTarget("general", 1);                       // drops D, then B (the newer suspended one)
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(1, 1, 0));
    p.setStandbyTarget("general", 0);
    assertThat(p.standbyPool("general")).isEqualTo(new StandbyPool(0, 0, 0));
    p.closeLedger(3_600_000);
    // A 210 s, B 200 s, C 10 s, D 10 s at the standby price; the bootstrap node an hour at the node price
    double standbySeconds = 210 + 200 + 10 + 10;
    assertThat(ledger.standbyHours()).isCloseTo(standbySeconds / 3600, within(1e-12));
    assertThat(ledger.nodeHours()).isCloseTo(2.0, within(1e-12));
    assertThat(ledger.cost()).isCloseTo(standbySeconds / 3600 * STANDBY_PRICE + 2 * PRICE, within(1e-12));
  }

  @Test
  void anInstanceCostsTheStandbyPriceUntilItIsResumedThenTheNodePrice() {
    SimProvider p = provider(Duration.ZERO);
    p.setStandbyTarget("general", 1);
    runTo(3_600_000);
    p.increaseSize("general", 1);
    p.closeLedger(7_200_000);
    // standby: the resumed instance's first hour and its replacement's second; running: two bootstrap nodes two
    // hours each and the resumed node one hour
    assertThat(ledger.standbyHours()).isCloseTo(2.0, within(1e-12));
    assertThat(ledger.nodeHours()).isCloseTo(5.0, within(1e-12));
    assertThat(ledger.cost()).isCloseTo(2 * STANDBY_PRICE + 5 * PRICE, within(1e-12));
  }

  @Test
  void aGroupWithoutStandbyRefusesATargetAndNoTargetIsNegative() {
    SimProvider p = provider(Duration.ZERO);
    assertThatThrownBy(() -> p.setStandbyTarget("plain", 1)).isInstanceOf(NodeGroupProvider.ProviderException.class)
        .hasMessage("node group plain has no spec.standby: it keeps no standby nodes");
    assertThatThrownBy(() -> p.setStandbyTarget("general", -1)).isInstanceOf(NodeGroupProvider.ProviderException.class)
        .hasMessageContaining("negative");
    assertThatThrownBy(() -> p.setStandbyTarget("other", 1)).isInstanceOf(NodeGroupProvider.ProviderException.class)
        .hasMessageContaining("no node group other");
  }

  @Test
  void standbyLaunchesDrawTheirJitterFromAStreamOfTheirOwn() {
    long withPool = readyAfterOneNewNode(true);
    long withoutPool = readyAfterOneNewNode(false);
    assertThat(withPool).isEqualTo(withoutPool);
  }

  @Test
  void theJitterAppliesToStandbyInstances() {
    SimProvider p = provider(Duration.ofSeconds(15));
    runTo(1_000);
    p.setStandbyTarget("general", 20);
    runTo(1_000 + DELAY - 15_000 - 1);
    assertThat(p.standbyPool("general").suspended()).isZero();
    runTo(1_000 + DELAY + 15_000);
    assertThat(p.standbyPool("general").suspended()).isEqualTo(20);
  }

  /** When a new node of a provider that launched standby instances first (or not) turns Ready. */
  private static long readyAfterOneNewNode(boolean pool) {
    EventQueue events = new EventQueue(new VirtualClock());
    SimCluster cluster = new SimCluster(events, (pod, wait, bound) -> {});
    SimProvider p = new SimProvider(cluster, List.of(group("general", true)), new SimRandom(7).stream("provider"),
        Duration.ofSeconds(15), new CostLedger());
    p.bootstrap();
    events.runUntil(1_000);
    if (pool) {
      p.setStandbyTarget("general", 3);
    }
    p.increaseSize("general", 1);
    SimNode n = cluster.nodes().stream().filter(x -> !x.ready()).findFirst().orElseThrow();
    events.runUntil(1_000_000);
    return n.readyAt();
  }
}
