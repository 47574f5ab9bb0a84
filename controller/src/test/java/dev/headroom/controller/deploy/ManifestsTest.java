package dev.headroom.controller.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.Flags;
import dev.headroom.controller.http.HttpEndpoints;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.nio.file.Files;
import java.util.List;
import org.junit.jupiter.api.Test;

class ManifestsTest {

  @Test
  void theKustomizationListsFilesThatExist() {
    String k = Manifests.text("kustomization.yaml");
    List<String> resources = k.lines().map(String::trim).filter(l -> l.startsWith("- ") && l.endsWith(".yaml")).map(l -> l.substring(2)).toList();
    assertThat(resources).contains("crds/capacitybuffers.autoscaling.x-k8s.io.yaml", "rbac.yaml", "deployment.yaml", "serviceaccount.yaml");
    for (String r : resources) {
      assertThat(Files.exists(Manifests.DEPLOY.resolve(r))).as(r).isTrue();
    }
  }

  @Test
  void theDeploymentRunsTwoLeaderElectedReplicasWithProbes() {
    Deployment d = (Deployment) Manifests.objects("deployment.yaml").get(0);
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    var c = d.getSpec().getTemplate().getSpec().getContainers().get(0);
    assertThat(c.getArgs()).first().isEqualTo("run");
    assertThat(c.getArgs()).contains(Flags.LEADER_ELECT + "=true", Flags.LOG_FORMAT + "=json", Flags.HTTP_PORT + "=8080");
    assertThat(c.getLivenessProbe().getHttpGet().getPath()).isEqualTo(HttpEndpoints.HEALTHZ);
    assertThat(c.getReadinessProbe().getHttpGet().getPath()).isEqualTo(HttpEndpoints.READYZ);
    assertThat(d.getSpec().getTemplate().getSpec().getServiceAccountName()).isEqualTo("headroom-controller");
  }

  @Test
  void theShippedCrdServesV1beta1WithAStatusSubresource() {
    List<HasMetadata> docs = Manifests.objects("crds/capacitybuffers.autoscaling.x-k8s.io.yaml");
    CustomResourceDefinition crd = (CustomResourceDefinition) docs.get(0);
    var v1beta1 = crd.getSpec().getVersions().stream().filter(v -> v.getName().equals("v1beta1")).findFirst().orElseThrow();
    assertThat(v1beta1.getStorage()).isTrue();
    assertThat(v1beta1.getSubresources().getStatus()).isNotNull();
  }
}
