package dev.headroom.sim.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PodSpecsTest {

  private static PodSpec rich() {
    return new PodSpecBuilder()
        .addNewContainer().withName("app").withImage("app:1").withNewResources()
        .addToRequests("cpu", new Quantity("500m")).addToRequests("memory", new Quantity("1Gi")).endResources().endContainer()
        .addNewInitContainer().withName("sidecar").withRestartPolicy("Always").endInitContainer()
        .addNewToleration().withKey("dedicated").withOperator("Equal").withValue("web").withEffect("NoSchedule").endToleration()
        .withNodeSelector(Map.of("zone", "a"))
        .withNewAffinity().withNewPodAntiAffinity().addNewRequiredDuringSchedulingIgnoredDuringExecution()
        .withTopologyKey("kubernetes.io/hostname").withNewLabelSelector().addToMatchLabels("app", "web").endLabelSelector()
        .endRequiredDuringSchedulingIgnoredDuringExecution().endPodAntiAffinity().endAffinity()
        .addNewTopologySpreadConstraint().withMaxSkew(1).withTopologyKey("zone").withWhenUnsatisfiable("DoNotSchedule")
        .endTopologySpreadConstraint()
        .withPriority(100).withPriorityClassName("high").withSchedulerName("default-scheduler")
        .withTerminationGracePeriodSeconds(30L).withRestartPolicy("Always").withServiceAccountName("sa")
        .withHostNetwork(false).withEnableServiceLinks(true).withNodeName("n1")
        .withOverhead(Map.of("cpu", new Quantity("10m")))
        .withActiveDeadlineSeconds(600L).withDnsPolicy("ClusterFirst").withRuntimeClassName("runc")
        .build();
  }

  @Test
  void copyEqualsABuilderCopyAndOwnsOnlyTheSpecObject() {
    PodSpec template = rich();
    template.setAdditionalProperty("x-extra", "1");
    PodSpec copy = PodSpecs.shallowCopy(template);
    assertThat(copy).isNotSameAs(template).isEqualTo(new PodSpecBuilder(template).build());
    assertThat(copy.getAdditionalProperties()).isEqualTo(Map.of("x-extra", "1")).isNotSameAs(template.getAdditionalProperties());
    // what the simulator writes per pod stays with the pod
    copy.setNodeName("n2");
    copy.setPriority(5);
    assertThat(template.getNodeName()).isEqualTo("n1");
    assertThat(template.getPriority()).isEqualTo(100);
    // the rest is shared with the template
    assertThat(copy.getContainers()).isSameAs(template.getContainers());
  }

  @Test
  void everyBeanPropertyIsCopied() {
    // every public setter of the model with a matching getter is a copied property
    long setters = java.util.Arrays.stream(PodSpec.class.getMethods())
        .filter(m -> m.getName().startsWith("set") && m.getParameterCount() == 1
            && !m.getName().startsWith("setAdditionalPropert"))
        .count();
    assertThat(PodSpecs.propertyCount()).isEqualTo((int) setters).isGreaterThan(30);
    assertThat(PodSpecs.getters()).containsKeys("Containers", "NodeName", "Tolerations", "Affinity", "Priority", "HostNetwork");
  }

  @Test
  void anEmptySpecCopiesToAnEmptySpec() {
    assertThat(PodSpecs.shallowCopy(new PodSpec())).isEqualTo(new PodSpec());
  }
}
