package dev.headroom.core.autoscaler;

import static dev.headroom.core.autoscaler.Fixtures.T0;
import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.expander.ExpansionOption;
import dev.headroom.core.autoscaler.expander.PlanComparator;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupLabels;
import dev.headroom.core.nodegroup.NodeGroupOptions;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.TaintBuilder;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The {@code provisioning-pass} planner ({@link TieredScaleUp}) and the pass alone ({@link OnePassScaleUp}) against
 * CA's per-group estimation ({@link PerGroupEstimates}, {@code provisioning-pass=false}) on seeded random clusters of up to 200
 * node groups (sizes, zones, capacity types, tainted and labelled pools, groups at their maximum size; pods with
 * selectors, tolerations, zonal spread, hostname anti-affinity). What the loop scales up is compared by the expander
 * chain's own measures ({@link PlanComparator}): the default planner (the tier) is worse in no case;
 * the pass alone (beyond the estimate budget) is still worse in some ({@link #PASS_ALONE_MAX_WORSE}). Every pod the
 * per-group path helps, one group per loop or with salvo rounds, the pass helps too; each group grows once, within its
 * room.
 */
class ScaleUpPlannerDifferentialTest {

  private static final String ZONE = "topology.kubernetes.io/zone";

  /** Records the plan a planner returned, what it read, and what the loop did with it. */
  static final class Recording implements ScaleUpPlanner {
    final ScaleUpPlanner inner;
    Input input;
    List<ExpansionOption> plan = List.of();
    List<ExpansionOption> executed = List.of();
    List<String> calls = List.of();
    IterationResult result;

    Recording(ScaleUpPlanner inner) {
      this.inner = inner;
    }

    @Override
    public List<ExpansionOption> plan(Input in) {
      input = in;
      plan = inner.plan(in);
      return plan;
    }
  }

  /** The expander chains compared; {@code priority} with {@link #PRIORITIES}. */
  static final List<String> EXPANDERS = List.of("least-waste", "price", "least-nodes", "most-pods,random", "priority,least-waste");

  /** The priority expander's configuration: groups g1.. above g2.. above the rest (no match passes through). */
  static final Map<Integer, List<String>> PRIORITIES = Map.of(20, List.of("^g1"), 10, List.of("^g2"));

  static final int SEEDS = 16;

  static Stream<Arguments> cases() {
    List<Arguments> out = new ArrayList<>();
    for (String expander : EXPANDERS) {
      for (boolean salvo : List.of(false, true)) {
        for (long seed = 1; seed <= SEEDS; seed++) {
          out.add(Arguments.of(expander, salvo, seed));
        }
      }
    }
    return out.stream();
  }

  static AutoscalerOptions options(String expander, boolean salvo) {
    return AutoscalerOptions.DEFAULTS.toBuilder().set(AutoscalerOptions.EXPANDER, expander)
        .set(AutoscalerOptions.EXPANDER_PRIORITIES, PRIORITIES).set(AutoscalerOptions.SALVO_SCALE_UP, salvo).build();
  }

  @ParameterizedTest(name = "{0} salvo={1} seed {2}")
  @MethodSource("cases")
  void passHelpsEveryPodThePerGroupPathHelps(String expander, boolean salvo, long seed) {
    AutoscalerOptions options = options(expander, salvo);
    Recording old = run(seed, options, new PerGroupEstimates());
    Recording pass = run(seed, options, new OnePassScaleUp());
    assertThat(uids(pass.plan)).as("pods helped").containsAll(uids(old.plan));
    // each group once, within its room; every pod on a group it passes on; no pod twice
    Map<String, NodeGroup> groups = new HashMap<>();
    for (NodeGroup g : groups(seed)) {
      groups.put(g.id(), g);
    }
    Set<String> seenGroups = new HashSet<>();
    int podCount = 0;
    for (ExpansionOption o : pass.plan) {
      NodeGroup g = groups.get(o.group().id());
      assertThat(seenGroups.add(g.id())).as("group %s once", g.id()).isTrue();
      assertThat(o.nodeCount()).as("room of %s", g.id()).isBetween(1, g.maxSize() - g.targetSize());
      podCount += o.pods().size();
    }
    assertThat(uids(pass.plan)).hasSize(podCount);
  }

  /**
   * With the default options ({@code provisioning-pass} on, the default estimate budget), within the budget (every case of {@link #cases} is: at most 200
   * groups × 150 pods), by the expander chain's own measures ({@link PlanComparator#compare}) over what the loop
   * executed (the provider's calls: one group per loop, or every salvo round): worse than the per-group path in no
   * case. Either the loop did exactly what the default planner does (the same provider calls and the same reasons for
   * the pods it does not help) or it helps every pod the per-group path helps and is strictly better; the second
   * happens in some cases, or the tier would be the per-group path under another name. Zonal spread is left out of
   * the measure: the two read it differently by design (CA counts only the zones of nodes that exist, so with none it
   * puts a spread workload into one group's zone; the pass counts every zone the catalogue offers and spreads it), so
   * their results for such pods answer different constraints.
   */
  @Test
  void theProvisioningPassPlannerIsWorseThanThePerGroupPathInNoCase() {
    List<String> worse = new ArrayList<>();
    int[] passKept = {0};
    cases().forEach(a -> {
      String expander = (String) a.get()[0];
      boolean salvo = (Boolean) a.get()[1];
      long seed = (Long) a.get()[2];
      // the default options: the tier decides
      AutoscalerOptions options = options(expander, salvo);
      assertThat(ScaleUpPlanner.of(options)).isInstanceOf(TieredScaleUp.class);
      Recording old = run(seed, false, options, new PerGroupEstimates());
      Recording tiered = run(seed, false, options, ScaleUpPlanner.of(options));
      assertThat(TieredScaleUp.estimatesAffordable(tiered.input)).as("%s salvo=%s seed %d within the budget", expander, salvo, seed).isTrue();
      PlanComparator measure = new PlanComparator(expander, groups(seed), PRIORITIES);
      String name = String.format("%s salvo=%s seed %d: provisioning-pass %s, per-group %s", expander, salvo, seed,
          measure.describe(tiered.executed), measure.describe(old.executed));
      if (measure.compare(tiered.executed, old.executed) > 0) {
        worse.add(name);
      }
      if (tiered.calls.equals(old.calls)) {
        assertThat(tiered.result.unschedulablePods()).as(name).isEqualTo(old.result.unschedulablePods());
        assertThat(tiered.result.scaleUp()).as(name).isEqualTo(old.result.scaleUp());
      } else {
        passKept[0]++;
        assertThat(uids(tiered.executed)).as(name).containsAll(uids(old.executed));
        assertThat(measure.compare(tiered.executed, old.executed)).as(name).isNegative();
      }
    });
    assertThat(worse).as("cases decided worse than the per-group path").isEmpty();
    assertThat(passKept[0]).as("cases where the pass's plan was kept").isPositive();
  }

  /**
   * Cases (of {@link #cases}) where the pass alone (estimate budget 0, as beyond the budget) decides worse than the
   * per-group path by the expander's measure: 73 of these 160 (docs/performance.md, "Decisions against the per-group
   * path", says why; 76 before own nodes first with salvo scale-up, which decides better in three of them). This bound
   * may only go down.
   */
  static final int PASS_ALONE_MAX_WORSE = 73;

  /** As {@link #theProvisioningPassPlannerIsWorseThanThePerGroupPathInNoCase}, with the pass alone deciding. */
  @Test
  void thePassAloneDecidesWorseInNoMoreCasesThanBefore() {
    List<String> worse = new ArrayList<>();
    cases().forEach(a -> {
      String expander = (String) a.get()[0];
      boolean salvo = (Boolean) a.get()[1];
      long seed = (Long) a.get()[2];
      AutoscalerOptions options = passOptions(expander, salvo, 0);
      Recording old = run(seed, false, options, new PerGroupEstimates());
      Recording pass = run(seed, false, options, ScaleUpPlanner.of(options));
      PlanComparator measure = new PlanComparator(expander, groups(seed), PRIORITIES);
      if (measure.compare(pass.executed, old.executed) > 0) {
        worse.add(String.format("%s salvo=%s seed %d: pass %s, per-group %s", expander, salvo, seed,
            measure.describe(pass.executed), measure.describe(old.executed)));
      }
    });
    assertThat(worse).as("cases decided worse than the per-group path").hasSizeLessThanOrEqualTo(PASS_ALONE_MAX_WORSE);
  }

  /** Seeds of {@link #budgetCases}: other clusters of the same generator (up to 200 groups). */
  static final long BUDGET_SEEDS_FROM = 101;
  static final long BUDGET_SEEDS_TO = 108;
  /** The forced-small estimate budget of {@link #budgetCases}: some of their clusters are within it, most beyond. */
  static final int SMALL_BUDGET = 2_000;

  /**
   * Cases of {@link #beyondASmallBudgetThePassAloneDecides} (as {@link #cases}, other seeds) where the result is worse
   * than the per-group path: all are cases beyond the budget, where the pass alone decides. This bound may only go
   * down. 38: own nodes first with salvo scale-up ({@code OnePassScaleUp.ownNodesFirst}) decides better than before in
   * two of these cases (least-nodes and price, seed 103) and worse in three (least-nodes seed 107, price seed 106,
   * priority,least-waste seed 108), all with salvo; with the three it wins in {@link #PASS_ALONE_MAX_WORSE}'s cases, the
   * two bounds together went from 113 to 111 (docs/performance.md, issue #25).
   */
  static final int SMALL_BUDGET_MAX_WORSE = 38;

  static Stream<Arguments> budgetCases() {
    List<Arguments> out = new ArrayList<>();
    for (String expander : EXPANDERS) {
      for (boolean salvo : List.of(false, true)) {
        for (long seed = BUDGET_SEEDS_FROM; seed <= BUDGET_SEEDS_TO; seed++) {
          out.add(Arguments.of(expander, salvo, seed));
        }
      }
    }
    return out.stream();
  }

  /**
   * With the budget forced small ({@link #SMALL_BUDGET}): where (groups that may grow) × (pods to help) exceeds it, the
   * loop does exactly what the pass alone does (the estimates do not run); within it, it is worse than the per-group
   * path in no case; over all, the cases decided worse are bounded ({@link #SMALL_BUDGET_MAX_WORSE}).
   */
  @Test
  void beyondASmallBudgetThePassAloneDecides() {
    List<String> worse = new ArrayList<>();
    int[] beyond = {0};
    budgetCases().forEach(a -> {
      String expander = (String) a.get()[0];
      boolean salvo = (Boolean) a.get()[1];
      long seed = (Long) a.get()[2];
      AutoscalerOptions options = passOptions(expander, salvo, SMALL_BUDGET);
      Recording old = run(seed, false, options, new PerGroupEstimates());
      Recording tiered = run(seed, false, options, ScaleUpPlanner.of(options));
      Recording alone = run(seed, false, options, new OnePassScaleUp());
      PlanComparator measure = new PlanComparator(expander, groups(seed), PRIORITIES);
      String name = String.format("%s salvo=%s seed %d: provisioning-pass %s, per-group %s", expander, salvo, seed,
          measure.describe(tiered.executed), measure.describe(old.executed));
      boolean isWorse = measure.compare(tiered.executed, old.executed) > 0;
      if (TieredScaleUp.estimatesAffordable(tiered.input)) {
        assertThat(isWorse).as(name).isFalse();
      } else {
        beyond[0]++;
        assertThat(tiered.calls).as(name).isEqualTo(alone.calls);
        assertThat(tiered.result.unschedulablePods()).as(name).isEqualTo(alone.result.unschedulablePods());
      }
      if (isWorse) {
        worse.add(name);
      }
    });
    assertThat(beyond[0]).as("cases beyond the budget").isBetween(1, (int) budgetCases().count() - 1);
    assertThat(worse).as("cases decided worse than the per-group path").hasSizeLessThanOrEqualTo(SMALL_BUDGET_MAX_WORSE);
  }

  static AutoscalerOptions passOptions(String expander, boolean salvo, int budget) {
    return options(expander, salvo).toBuilder().set(AutoscalerOptions.PROVISIONING_PASS, true)
        .set(AutoscalerOptions.PROVISIONING_PASS_ESTIMATE_BUDGET, budget).build();
  }

  private static Recording run(long seed, AutoscalerOptions options, ScaleUpPlanner planner) {
    return run(seed, true, options, planner);
  }

  private static Recording run(long seed, boolean zonalSpread, AutoscalerOptions options, ScaleUpPlanner planner) {
    Fixtures.World w = world(seed, zonalSpread);
    Recording r = new Recording(planner);
    r.result = new Autoscaler(options, w, w, w, w, new AutoscalerState(options), SnapshotSimulation::new, r).runOnce(T0);
    r.calls = List.copyOf(w.calls);
    // the options the loop executed: the groups the provider was asked to grow
    Set<String> grown = new HashSet<>();
    for (String call : w.calls) {
      if (call.startsWith("increase ")) {
        grown.add(call.split(" ")[1]);
      }
    }
    r.executed = r.plan.stream().filter(o -> grown.contains(o.group().id())).toList();
    return r;
  }

  private static Set<String> uids(List<ExpansionOption> plan) {
    Set<String> out = new HashSet<>();
    for (ExpansionOption o : plan) {
      for (Pod p : o.pods()) {
        out.add(p.getMetadata().getUid());
      }
    }
    return out;
  }

  private static final int[] CPUS = {1, 2, 4, 8, 16, 32};
  private static final String[] ZONES = {"z1", "z2", "z3"};

  /** Up to 200 groups: sizes, zones, capacity types, some tainted or labelled pools, some at their maximum size. */
  static List<NodeGroup> groups(long seed) {
    Random r = new Random(seed);
    int n = 1 + r.nextInt(200);
    List<NodeGroup> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      int cpu = CPUS[r.nextInt(CPUS.length)];
      int memPerCpu = 2 << r.nextInt(3);
      boolean spot = r.nextBoolean();
      String id = "g" + i;
      Node t = Fixtures.template(id, String.valueOf(cpu), (cpu * memPerCpu) + "Gi");
      t.getMetadata().getLabels().put(ZONE, ZONES[r.nextInt(ZONES.length)]);
      t.getMetadata().getLabels().put("karpenter.sh/capacity-type", spot ? "spot" : "on-demand");
      if (r.nextInt(6) == 0) {
        t.getMetadata().getLabels().put("pool", "batch");
      }
      if (r.nextInt(8) == 0) {
        t.getSpec().setTaints(List.of(new TaintBuilder().withKey("dedicated").withValue("gpu").withEffect("NoSchedule").build()));
      }
      int max = 1 + r.nextInt(40);
      int target = r.nextInt(10) == 0 ? max : 0;
      double price = cpu * (spot ? 0.3 : 1.0) * (0.8 + 0.4 * r.nextDouble());
      out.add(new NodeGroup(id, 0, max, target, price, Duration.ZERO, t, NodeGroupOptions.NONE));
    }
    return out;
  }

  private static final String[] POD_CPU = {"100m", "250m", "500m", "1", "1500m", "3"};
  private static final String[] POD_MEM = {"128Mi", "512Mi", "1Gi", "2Gi", "6Gi"};

  static Fixtures.World world(long seed) {
    return world(seed, true);
  }

  /**
   * The seeded cluster; without {@code zonalSpread}, the workloads that would spread over zones spread over
   * hostnames instead (the same pods otherwise).
   */
  static Fixtures.World world(long seed, boolean zonalSpread) {
    Fixtures.World w = new Fixtures.World();
    List<NodeGroup> groups = groups(seed);
    for (NodeGroup g : groups) {
      w.group(g);
    }
    Random r = new Random(seed * 7919);
    int pods = 1 + r.nextInt(150);
    int workloads = 1 + r.nextInt(12);
    List<String[]> shapes = new ArrayList<>();
    for (int k = 0; k < workloads; k++) {
      shapes.add(new String[] {POD_CPU[r.nextInt(POD_CPU.length)], POD_MEM[r.nextInt(POD_MEM.length)], String.valueOf(r.nextInt(8))});
    }
    for (int i = 0; i < pods; i++) {
      int k = r.nextInt(workloads);
      String[] s = shapes.get(k);
      Pod p = Fixtures.pod("p" + i, s[0], s[1], null);
      p.getMetadata().getOwnerReferences().get(0).setUid("rs-" + k);
      p.getMetadata().setLabels(new HashMap<>(Map.of("app", "w" + k)));
      switch (Integer.parseInt(s[2])) {
        case 1 -> p.getSpec().setNodeSelector(Map.of("pool", "batch"));
        case 2 -> p.getSpec().setTolerations(List.of(new TolerationBuilder().withKey("dedicated").withOperator("Exists").build()));
        case 3 -> p.getSpec().setTopologySpreadConstraints(List.of(new TopologySpreadConstraintBuilder().withMaxSkew(1)
            .withTopologyKey(zonalSpread ? ZONE : NodeGroupLabels.HOSTNAME).withWhenUnsatisfiable("DoNotSchedule")
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "w" + k)).build()).build()));
        case 4 -> p.getSpec().setAffinity(new io.fabric8.kubernetes.api.model.AffinityBuilder().withNewPodAntiAffinity()
            .withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey(NodeGroupLabels.HOSTNAME)
                .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", "w" + k)).build()).build())
            .endPodAntiAffinity().build());
        case 5 -> p.getSpec().setNodeSelector(Map.of(ZONE, ZONES[k % ZONES.length]));
        default -> { }
      }
      w.pods.add(p);
    }
    return w;
  }
}
