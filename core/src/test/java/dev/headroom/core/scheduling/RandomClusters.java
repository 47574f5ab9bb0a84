package dev.headroom.core.scheduling;

import io.fabric8.kubernetes.api.model.ContainerPortBuilder;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeSelectorRequirementBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.api.model.TolerationBuilder;
import io.fabric8.kubernetes.api.model.TopologySpreadConstraintBuilder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Seeded generators of random nodes and pod templates exercising every predicate. */
final class RandomClusters {

  private RandomClusters() {}

  static final String[] ZONES = {"z0", "z1", "z2"};
  static final String[] APPS = {"a", "b", "c"};

  static Node node(Random r, String name) {
    var b = Fixtures.node(name, (1 + r.nextInt(6)) + "", (1 + r.nextInt(12)) + "Gi", 3 + r.nextInt(12));
    var meta = b.editMetadata();
    if (r.nextInt(10) > 0) {
      meta.addToLabels("topology.kubernetes.io/zone", ZONES[r.nextInt(ZONES.length)]);
    }
    if (r.nextBoolean()) {
      meta.addToLabels("tier", APPS[r.nextInt(APPS.length)]);
    }
    meta.addToLabels("num", String.valueOf(r.nextInt(10)));
    b = meta.endMetadata();
    List<Taint> taints = new ArrayList<>();
    if (r.nextInt(7) == 0) {
      taints.add(new Taint("NoSchedule", "dedicated", null, "x"));
    }
    if (r.nextInt(10) == 0) {
      taints.add(new Taint("NoExecute", "gpu", null, ""));
    }
    if (r.nextInt(10) == 0) {
      taints.add(new Taint("PreferNoSchedule", "soft", null, ""));
    }
    return b.editSpec().withTaints(taints).withUnschedulable(r.nextInt(20) == 0).endSpec().build();
  }

  /** A template; {@link #instance} stamps unique names. */
  static Pod template(Random r) {
    return template(r, false);
  }

  /**
   * A template; with {@code fewShapes} its requests are one of two shapes, so that many equivalence classes
   * share a request shape (the same random draws either way).
   */
  static Pod template(Random r, boolean fewShapes) {
    int[] cpus = fewShapes ? new int[] {1000, 1000, 1000, 1500, 1500} : new int[] {100, 250, 500, 1000, 2000};
    int[] mems = fewShapes ? new int[] {1024, 1024, 1024, 1024} : new int[] {64, 256, 1024, 3072};
    String app = APPS[r.nextInt(APPS.length)];
    PodBuilder b = Fixtures.pod("t", cpus[r.nextInt(cpus.length)] + "m", mems[r.nextInt(mems.length)] + "Mi", "app", app);
    var spec = b.editSpec();
    if (r.nextInt(6) == 0) {
      spec.withNodeSelector(Map.of("tier", APPS[r.nextInt(APPS.length)]));
    }
    String[] ops = {"In", "NotIn", "Exists", "DoesNotExist", "Gt", "Lt"};
    if (r.nextInt(6) == 0) {
      String op = ops[r.nextInt(ops.length)];
      List<String> values = switch (op) {
        case "Exists", "DoesNotExist" -> List.of();
        case "Gt", "Lt" -> List.of(r.nextInt(8) == 0 ? "x" : String.valueOf(r.nextInt(10)));
        default -> List.of(String.valueOf(r.nextInt(10)), String.valueOf(r.nextInt(10)));
      };
      String key = op.equals("Exists") || op.equals("DoesNotExist") ? "tier" : "num";
      spec.withNewAffinity().withNewNodeAffinity().withNewRequiredDuringSchedulingIgnoredDuringExecution()
          .addNewNodeSelectorTerm().withMatchExpressions(
              new NodeSelectorRequirementBuilder().withKey(key).withOperator(op).withValues(values).build())
          .endNodeSelectorTerm().endRequiredDuringSchedulingIgnoredDuringExecution().endNodeAffinity().endAffinity();
    }
    if (r.nextInt(4) == 0) {
      spec.addToTolerations(new TolerationBuilder().withKey("dedicated").withOperator("Equal").withValue("x")
          .withEffect("NoSchedule").build());
    }
    if (r.nextInt(8) == 0) {
      spec.addToTolerations(new TolerationBuilder().withOperator("Exists").build());
    }
    if (r.nextInt(8) == 0) {
      String ip = r.nextBoolean() ? null : "10.0.0." + r.nextInt(2);
      spec.editFirstContainer().withPorts(new ContainerPortBuilder().withContainerPort(80)
          .withHostPort(r.nextBoolean() ? 80 : 443).withHostIP(ip).build()).endContainer();
    }
    String[] keys = {"topology.kubernetes.io/zone", CompiledNode.HOSTNAME_LABEL};
    int kind = r.nextInt(10);
    if (kind == 0 || kind == 1) {
      var term = new PodAffinityTermBuilder().withTopologyKey(keys[r.nextInt(2)])
          .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", APPS[r.nextInt(APPS.length)])).build())
          .build();
      var aff = spec.withNewAffinity();
      if (kind == 0) {
        aff.withNewPodAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAffinity();
      } else {
        aff.withNewPodAntiAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(term).endPodAntiAffinity();
      }
      aff.endAffinity();
    } else if (kind == 2 || kind == 3) {
      int n = 1 + r.nextInt(2);
      for (int i = 0; i < n; i++) {
        spec.addToTopologySpreadConstraints(new TopologySpreadConstraintBuilder().withTopologyKey(keys[r.nextInt(2)])
            .withMaxSkew(1 + r.nextInt(2)).withWhenUnsatisfiable("DoNotSchedule")
            .withMinDomains(r.nextInt(3) == 0 ? 1 + r.nextInt(4) : null)
            .withNodeTaintsPolicy(r.nextInt(3) == 0 ? "Honor" : null)
            .withNodeAffinityPolicy(r.nextInt(4) == 0 ? "Ignore" : null)
            .withLabelSelector(new LabelSelectorBuilder().withMatchLabels(Map.of("app", APPS[r.nextInt(APPS.length)])).build())
            .build());
      }
    }
    return spec.endSpec().build();
  }

  static Pod instance(Pod template, String name) {
    return new PodBuilder(template).editMetadata().withName(name).withUid("uid-" + name).endMetadata().build();
  }
}
