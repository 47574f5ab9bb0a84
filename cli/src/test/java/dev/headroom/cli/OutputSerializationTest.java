package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/** {@link OutputSerialization#yaml}: kubectl's quoting, and every string read back as the same string. */
class OutputSerializationTest {

  /** Pieces that make a scalar read as another type, or break plain syntax, alone or glued together. */
  private static final String[] PIECES = {"true", "False", "yes", "No", "ON", "off", "y", "N", "null", "Null", "~", "",
      "0", "012", "0x1F", "0o17", "0b101", "1_000", "-_1", "1e3", "1E+3", "-.5", ".5", "1.", "1.2.3", ".inf", "-.Inf",
      ".NaN", "-inf", "+Infinity", "nan", "0x1p-2", "1:20", "190:20:30.15", "2026-12-02", "2026-12-02T10:00:00Z",
      "2026-1-2 3:04:05", "<<", "=", ": ", ":", " #", "#", "- ", "-", "--- ", "...", "? ", "?", "&a", "*a", "!tag",
      "!!str", "%", "@", "`", "|", ">", "'", "\"", "{", "}", "[", "]", ",", "\n", "\n\n", "\t", " ", "  ", "\\",
      "\r", "\u0001", "\u0085", "\u2028", "\uFEFF", "é", "日本", "\uD83D\uDE00", "1Gi", "100m", "500Mi", "x", "CapacityBuffer",
      "buffer.x-k8s.io/active-capacity", "a b", "http://x:80/p?q=1#f", "key: value", "[1, 2]", "{a: 1}"};

  private static String tricky(Random random) {
    StringBuilder b = new StringBuilder();
    int n = 1 + random.nextInt(3);
    for (int i = 0; i < n; i++) {
      b.append(PIECES[random.nextInt(PIECES.length)]);
    }
    return b.toString();
  }

  private static Object load(String yaml) {
    return new Load(LoadSettings.builder().setSchema(new CoreSchema()).build()).loadFromString(yaml);
  }

  @Test
  void everyPieceAloneAndSeededMixesReadBackAsTheSameStrings() {
    Random random = new Random(24);
    Map<String, Object> doc = new LinkedHashMap<>();
    List<Object> list = new ArrayList<>();
    for (String p : PIECES) {
      doc.put(p, p);
      list.add(p);
    }
    for (int i = 0; i < 3000; i++) {
      String key = tricky(random);
      String value = tricky(random);
      doc.put(key, value);
      list.add(Map.of("name", value, "value", key));
    }
    doc.put("items-of-the-list", list);
    doc.put("a number", 12);
    doc.put("a fraction", 0.25);
    doc.put("a boolean", true);
    String yaml = OutputSerialization.yaml(doc);
    @SuppressWarnings("unchecked")
    Map<String, Object> back = (Map<String, Object>) load(yaml);
    List<String> differ = new ArrayList<>();
    doc.forEach((k, v) -> {
      if (!back.containsKey(k)) {
        differ.add("key lost: " + escape(k));
      } else if (!v.equals(back.get(k)) && v instanceof String) {
        differ.add(escape(k) + ": " + escape(v) + " read back as " + escape(back.get(k)));
      }
    });
    assertThat(differ).isEmpty();
    assertThat(back).isEqualTo(doc);
    KubectlYaml.assertStringsReadBackAsStrings(yaml);
    // go-yaml (kubectl) breaks lines at NEL, LS and PS even inside quotes and skips a byte-order mark at the start of
    // a line: they only appear escaped
    assertThat(yaml).doesNotContain("\u0085", "\u2028", "\u2029", "\uFEFF").contains("\\u2028", "\\uFEFF");
  }

  private static String escape(Object o) {
    StringBuilder b = new StringBuilder("<");
    String s = String.valueOf(o);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      b.append(c < 0x20 || c > 0x7e ? String.format("\\u%04x", (int) c) : String.valueOf(c));
    }
    return b.append('>').toString();
  }

  @Test
  void plainScalarsStayPlainAsKubectlPrintsThem() {
    Map<String, Object> doc = new LinkedHashMap<>();
    doc.put("apiVersion", "autoscaling.x-k8s.io/v1beta1");
    doc.put("kind", "CapacityBuffer");
    doc.put("memory", "1Gi");
    doc.put("cpu", "100m");
    doc.put("image", "nginx:1.27");
    doc.put("status", "True");
    doc.put("gang", "true");
    doc.put("gpu", "1");
    doc.put("version", "1.30");
    doc.put("at", "2026-03-02T08:30:00Z");
    doc.put("empty", "");
    doc.put("message", "Buffer not ready: no template");
    doc.put("script", "line one\nline two\n");
    assertThat(OutputSerialization.yaml(doc)).isEqualTo("""
        ---
        apiVersion: autoscaling.x-k8s.io/v1beta1
        kind: CapacityBuffer
        memory: 1Gi
        cpu: 100m
        image: nginx:1.27
        status: "True"
        gang: "true"
        gpu: "1"
        version: "1.30"
        at: "2026-03-02T08:30:00Z"
        empty: ""
        message: 'Buffer not ready: no template'
        script: |
          line one
          line two
        """);
  }

  @Test
  void aCapacityBufferRoundTripsThroughFabric8() {
    CapacityBuffer b = OutputSerialization.INSTANCE.unmarshal("""
        apiVersion: autoscaling.x-k8s.io/v1beta1
        kind: CapacityBuffer
        metadata: {name: "on", namespace: "0777", labels: {a: "yes", b: "2026-12-02"}}
        spec: {provisioningStrategy: buffer.x-k8s.io/active-capacity, podTemplateRef: {name: "null"}, replicas: 3,
          limits: {cpu: "4", memory: 8Gi}}
        """, CapacityBuffer.class);
    String yaml = OutputSerialization.yaml(b);
    assertThat(yaml).contains("kind: CapacityBuffer\n", "name: \"on\"\n", "namespace: \"0777\"\n", "replicas: 3\n",
        "memory: 8Gi\n", "cpu: \"4\"\n");
    assertThat(OutputSerialization.INSTANCE.unmarshal(yaml, CapacityBuffer.class)).isEqualTo(b);
    KubectlYaml.assertStringsReadBackAsStrings(yaml);
  }
}
