package dev.headroom.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import org.junit.jupiter.api.Test;

class DryRunPodResolverTest {

  private static KubernetesClientException error(int code, String message) {
    return new KubernetesClientException(new StatusBuilder().withCode(code).withMessage(message).build());
  }

  @Test
  void refusalsOfTheMechanismFallBackButAdmissionRejectionsDoNot() {
    assertThat(DryRunPodResolver.refusesDryRun(error(403, "pods is forbidden: User \"x\" cannot create resource \"pods\" in API group \"\""))).isTrue();
    assertThat(DryRunPodResolver.refusesDryRun(error(400, "dryRun is not supported"))).isTrue();
    assertThat(DryRunPodResolver.refusesDryRun(error(405, "method not allowed"))).isTrue();
    assertThat(DryRunPodResolver.refusesDryRun(error(403, "admission webhook \"policy\" denied the request: no privileged pods"))).isFalse();
    assertThat(DryRunPodResolver.refusesDryRun(error(422, "Pod \"fake-pod-x\" is invalid"))).isFalse();
    assertThat(DryRunPodResolver.refusesDryRun(error(500, "etcd timeout"))).isFalse();
  }
}
