package dev.headroom.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Trees as a YAML reader gives them (integers as {@code Long}) into fabric8 objects. */
class ModelsTest {

  @Test
  void intOrStringFieldsTakeTheLongsAYamlReaderGives() {
    // kubectl prints a numeric probe port and a numeric maxSurge as plain integers
    Map<String, Object> spec = Map.of("containers", List.of(Map.of("name", "c", "image", "i",
        "ports", List.of(Map.of("containerPort", 8080L)),
        "livenessProbe", Map.of("httpGet", Map.of("path", "/", "port", 8080L)),
        "readinessProbe", Map.of("tcpSocket", Map.of("port", "http")))));
    PodSpec pod = Models.fromTree(spec, PodSpec.class);
    assertThat(pod.getContainers().get(0).getLivenessProbe().getHttpGet().getPort()).isEqualTo(new IntOrString(8080));
    assertThat(pod.getContainers().get(0).getReadinessProbe().getTcpSocket().getPort()).isEqualTo(new IntOrString("http"));
    assertThat(pod.getContainers().get(0).getPorts().get(0).getContainerPort()).isEqualTo(8080);

    Map<String, Object> deployment = Map.of("apiVersion", "apps/v1", "kind", "Deployment",
        "metadata", Map.of("name", "d", "generation", 3L),
        "spec", Map.of("replicas", 2L, "strategy", Map.of("rollingUpdate", Map.of("maxSurge", 1L, "maxUnavailable", "25%"))));
    Deployment d = Models.fromTree(deployment, Deployment.class);
    assertThat(d.getSpec().getStrategy().getRollingUpdate().getMaxSurge()).isEqualTo(new IntOrString(1));
    assertThat(d.getMetadata().getGeneration()).isEqualTo(3L);
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
  }

  @Test
  void theTreeIsLeftAsItWasAndLongsBeyondIntStayLongs() {
    Map<String, Object> probe = new java.util.LinkedHashMap<>(Map.of("port", 8080L));
    Map<String, Object> tree = new java.util.LinkedHashMap<>(Map.of("httpGet", probe, "name", "x"));
    Object narrowed = Models.narrowInts(tree);
    assertThat(probe.get("port")).isInstanceOf(Long.class);
    assertThat(((Map<?, ?>) ((Map<?, ?>) narrowed).get("httpGet")).get("port")).isEqualTo(8080);
    Map<String, Object> plain = Map.of("a", "b", "c", List.of("d"));
    assertThat(Models.narrowInts(plain)).isSameAs(plain);
    assertThat(Models.narrowInts(1L << 40)).isEqualTo(1L << 40);
    // an IntOrString beyond int is still refused, as the API server refuses it
    assertThatThrownBy(() -> Models.fromTree(Map.of("port", 1L << 40), io.fabric8.kubernetes.api.model.HTTPGetAction.class))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
