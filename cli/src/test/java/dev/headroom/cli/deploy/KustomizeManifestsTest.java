package dev.headroom.cli.deploy;

import static dev.headroom.cli.deploy.HelmChartEquivalenceTest.map;
import static dev.headroom.cli.deploy.HelmChartEquivalenceTest.path;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * What the kustomize manifests promise beyond the controller module's checks (RBAC, probes): two replicas kept apart
 * and kept through voluntary disruptions, at a priority workloads cannot preempt. Runs without helm.
 */
class KustomizeManifestsTest {

  @Test
  @SuppressWarnings("unchecked")
  void twoReplicasSpreadOverNodesKeptByADisruptionBudgetAtClusterCriticalPriority() throws Exception {
    Map<String, Map<String, Object>> k = HelmChartEquivalenceTest.kustomize();
    Map<String, Object> d = k.get("Deployment/headroom-controller");
    assertThat(map(d, "spec").get("replicas")).isEqualTo(2);
    Map<String, Object> podLabels = path(d, "spec", "template", "metadata", "labels");
    Map<String, Object> pod = path(d, "spec", "template", "spec");
    assertThat(pod.get("priorityClassName")).isEqualTo("system-cluster-critical");

    List<Map<String, Object>> preferred = (List<Map<String, Object>>) path(pod, "affinity", "podAntiAffinity")
        .get("preferredDuringSchedulingIgnoredDuringExecution");
    assertThat(preferred).singleElement().satisfies(t -> {
      Map<String, Object> term = map(t, "podAffinityTerm");
      assertThat(term.get("topologyKey")).isEqualTo("kubernetes.io/hostname");
      assertThat(podLabels).containsAllEntriesOf(path(term, "labelSelector", "matchLabels"));
      assertThat(path(term, "labelSelector", "matchLabels")).isEqualTo(path(d, "spec", "selector", "matchLabels"));
    });

    Map<String, Object> pdb = k.get("PodDisruptionBudget/headroom-controller");
    assertThat(pdb).as("kustomization lists poddisruptionbudget.yaml").isNotNull();
    assertThat(map(pdb, "metadata").get("namespace")).isEqualTo("headroom-system");
    assertThat(map(pdb, "spec").get("minAvailable")).isEqualTo(1);
    assertThat(podLabels).containsAllEntriesOf(path(pdb, "spec", "selector", "matchLabels"));
    assertThat(path(pdb, "spec", "selector", "matchLabels")).isNotEmpty();
  }
}
