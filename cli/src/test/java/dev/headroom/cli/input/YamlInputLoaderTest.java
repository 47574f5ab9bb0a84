package dev.headroom.cli.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PodTemplate;
import java.io.StringReader;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The YAML loader: documents, Lists, positions, errors. */
class YamlInputLoaderTest {

  final YamlInputLoader loader = new YamlInputLoader();

  List<InputDocument> parse(String text) throws InputException {
    return loader.parse("f.yaml", new StringReader(text));
  }

  @Test
  void multiDocumentPositionsAndEmptyDocuments() throws Exception {
    List<InputDocument> docs = parse("""
        # comment
        apiVersion: v1
        kind: PodTemplate
        metadata: {name: a}
        ---
        ---
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: g
        """);
    assertThat(docs).extracting(d -> d.position().toString()).containsExactly("f.yaml:2", "f.yaml:7");
    assertThat(docs.get(1).kind()).isEqualTo("NodeGroup");
    assertThat(docs.get(1).apiVersion()).isEqualTo("headroom.dev/v1alpha1");
    assertThat(docs.get(1).name()).isEqualTo("g");
    assertThat(docs.get(0).as(PodTemplate.class).getMetadata().getName()).isEqualTo("a");
  }

  @Test
  void listItemsKeepTheirOwnLines() throws Exception {
    List<InputDocument> docs = parse("""
        apiVersion: v1
        kind: List
        items:
          - apiVersion: v1
            kind: Node
            metadata: {name: n1}
          - apiVersion: v1
            kind: Pod
            metadata:
              name: p1
              namespace: x
        """);
    assertThat(docs).extracting(d -> d.position().line()).containsExactly(4, 7);
    assertThat(docs.get(1).namespace()).isEqualTo("x");
  }

  @Test
  void rawTreesKeepTypes() throws Exception {
    InputDocument d = parse("apiVersion: v1\nkind: X\nspec: {a: 1, b: 1.5, c: \"1\", d: true, e: null, f: 123456789012345678901234567890}\n").get(0);
    @SuppressWarnings("unchecked")
    var spec = (java.util.Map<String, Object>) d.raw().get("spec");
    assertThat(spec.get("a")).isEqualTo(1L);
    assertThat(spec.get("b")).isEqualTo(1.5);
    assertThat(spec.get("c")).isEqualTo("1");
    assertThat(spec.get("d")).isEqualTo(true);
    assertThat(spec).containsKey("e");
    assertThat(spec.get("f")).isInstanceOf(java.math.BigInteger.class);
    d.copyOfRaw().put("kind", "Y");
    assertThat(d.kind()).isEqualTo("X");
  }

  @Test
  void errorsAreOneLineWithPositions() {
    assertThatThrownBy(() -> parse("a: b\n  c: d\n")).isInstanceOf(InputException.class)
        .hasMessageStartingWith("f.yaml:2: ").hasMessageNotContaining("\n");
    assertThatThrownBy(() -> parse("apiVersion: v1\nkind: A\n---\n- just\n- a list\n")).isInstanceOf(InputException.class)
        .hasMessage("f.yaml:4: a document must be a Kubernetes object (a mapping), found a list");
    assertThatThrownBy(() -> parse("metadata: {name: x}\n")).isInstanceOf(InputException.class).hasMessage("f.yaml:1: object has no kind");
    assertThatThrownBy(() -> parse("kind: Pod\n")).isInstanceOf(InputException.class).hasMessage("f.yaml:1: object of kind Pod has no apiVersion");
    assertThatThrownBy(() -> parse("apiVersion: v1\nkind: List\nitems:\n  - 3\n")).isInstanceOf(InputException.class)
        .hasMessage("f.yaml:4: a List item must be a Kubernetes object (a mapping), found the scalar \"3\"");
  }

  @Test
  void aPodWithANumericProbePortAsKubectlPrintsItConverts() throws Exception {
    List<InputDocument> docs = parse("""
        apiVersion: v1
        kind: Pod
        metadata: {name: p, namespace: default}
        spec:
          containers:
          - name: c
            image: i
            livenessProbe:
              httpGet: {path: /, port: 8080}
        """);
    io.fabric8.kubernetes.api.model.Pod pod = docs.get(0).as(io.fabric8.kubernetes.api.model.Pod.class);
    assertThat(pod.getSpec().getContainers().get(0).getLivenessProbe().getHttpGet().getPort().getIntVal()).isEqualTo(8080);
  }
}
