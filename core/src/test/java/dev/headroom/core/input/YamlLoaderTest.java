package dev.headroom.core.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.snakeyaml.engine.v2.nodes.Node;

class YamlLoaderTest {

  private static Object only(String yaml) {
    List<Node> docs = YamlLoader.compose("t.yaml", yaml);
    assertThat(docs).hasSize(1);
    return YamlLoader.plain(docs.get(0), null);
  }

  @Test
  void anchorsAliasesAndMergeKeysResolveLikeKubectl() {
    Object tree = only("""
        base: &base
          a: 1
          b: 2
        other: &other
          b: 20
          c: 30
        x:
          <<: [*base, *other]
          a: 10
        y: *base
        """);
    assertThat(tree).isEqualTo(Map.of("base", Map.of("a", 1L, "b", 2L), "other", Map.of("b", 20L, "c", 30L),
        "x", Map.of("a", 10L, "b", 2L, "c", 30L), "y", Map.of("a", 1L, "b", 2L)));
  }

  @Test
  void aliasesBecomeCopies() {
    @SuppressWarnings("unchecked")
    Map<String, Object> tree = (Map<String, Object>) only("a: &x {k: v}\nb: *x\n");
    assertThat(tree.get("a")).isEqualTo(tree.get("b")).isNotSameAs(tree.get("b"));
  }

  @Test
  void duplicateKeysNameBothLines() {
    assertThatThrownBy(() -> only("a: 1\nb:\n  c: 1\n  c: 2\n"))
        .isInstanceOfSatisfying(TextInputException.class, e -> assertThat(e.line()).isEqualTo(4))
        .hasMessage("duplicate key \"c\" (first at line 3)");
  }

  @Test
  void mergedKeysMayBeOverriddenButNotRepeated() {
    assertThat(only("a: &a {k: 1}\nb: {<<: *a, k: 2}\n")).isEqualTo(Map.of("a", Map.of("k", 1L), "b", Map.of("k", 2L)));
  }

  @Test
  void deepNestingIsALimitNotAStackOverflow() {
    String deep = "[".repeat(100_000) + "]".repeat(100_000);
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> YamlLoader.compose("t", deep))
        .isInstanceOf(TextInputException.class).hasMessageContaining("nested more than 100 levels"));
    StringBuilder block = new StringBuilder();
    for (int i = 0; i < 2000; i++) {
      block.append("  ".repeat(i)).append("k:\n");
    }
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> YamlLoader.compose("t", block.toString()))
        .isInstanceOf(TextInputException.class).hasMessageContaining("nested more than 100 levels"));
  }

  @Test
  void aliasBombsAreRefused() {
    StringBuilder y = new StringBuilder("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for (int i = 1; i < 9; i++) {
      y.append("a").append(i).append(": &a").append(i).append(" [");
      for (int j = 0; j < 10; j++) {
        y.append(j == 0 ? "" : ", ").append("*a").append(i - 1);
      }
      y.append("]\n");
    }
    assertTimeoutPreemptively(Duration.ofSeconds(5), () -> assertThatThrownBy(() -> YamlLoader.compose("t", y.toString()))
        .isInstanceOf(TextInputException.class).hasMessageContaining("values once aliases are expanded"));
  }

  @Test
  void aliasesThatNestTooDeepAreRefused() {
    StringBuilder y = new StringBuilder("a0: &a0 " + "[".repeat(60) + "]".repeat(60) + "\n");
    y.append("a1: &a1 ").append("[".repeat(60)).append("*a0").append("]".repeat(60)).append('\n');
    assertThatThrownBy(() -> YamlLoader.compose("t", y.toString())).hasMessageContaining("once aliases are expanded");
  }

  @Test
  void recursiveStructuresAreRefused() {
    assertThatThrownBy(() -> YamlLoader.compose("t", "a: &a\n  b: *a\n")).isInstanceOf(TextInputException.class)
        .hasMessageContaining("recursive");
  }

  @Test
  void largeScalarsParseInLinearTimeUpToTheLimitOfOneDocument() {
    String big = "description: " + "x".repeat(InputText.MAX_DOCUMENT_CHARS - 100) + "\n";
    assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertThat(YamlLoader.compose("t", big)).hasSize(1));
    String tooBig = "a: 1\n---\nb: 2\n---\ndescription: " + "x".repeat(InputText.MAX_DOCUMENT_CHARS + 1) + "\n";
    assertThatThrownBy(() -> YamlLoader.compose("t", tooBig)).isInstanceOf(TextInputException.class)
        .hasMessageContaining("document larger than 3 MiB")
        .satisfies(e -> assertThat(((TextInputException) e).line()).isEqualTo(4)); // its --- line
  }

  @Test
  void theLimitIsPerDocumentNotPerFile() {
    String doc = "description: " + "x".repeat(InputText.MAX_DOCUMENT_CHARS / 2) + "\n";
    String text = (doc + "---\n").repeat(4);
    assertThat(text.length()).isGreaterThan(InputText.MAX_DOCUMENT_CHARS);
    assertThat(YamlLoader.compose("t", text)).hasSize(5);
  }

  @Test
  void listItemsAreReadAndLimitedOneByOne() {
    String item = "- name: " + "x".repeat(InputText.MAX_DOCUMENT_CHARS / 2) + "\n";
    String list = "apiVersion: v1\nitems:\n" + item.repeat(3) + "kind: List\n";
    List<Node> items = new java.util.ArrayList<>();
    List<Node> roots = new java.util.ArrayList<>();
    List<Boolean> split = new java.util.ArrayList<>();
    YamlLoader.stream("t", new java.io.StringReader(list), true, new YamlLoader.Sink() {
      @Override
      public void item(Node n) {
        items.add(n);
      }

      @Override
      public void document(Node root, boolean itemsSplit) {
        roots.add(root);
        split.add(itemsSplit);
      }
    });
    assertThat(items).hasSize(3);
    assertThat(items).extracting(YamlLoader::line).containsExactly(3, 4, 5);
    assertThat(roots).hasSize(1);
    assertThat(split).containsExactly(true);
    assertThat(((java.util.Map<?, ?>) YamlLoader.plain(roots.get(0), null)).get("kind")).isEqualTo("List");
    // without splitting, the same List is one document over the limit
    assertThatThrownBy(() -> YamlLoader.compose("t", list)).hasMessageContaining("document larger than 3 MiB");
    String tooBigItem = "apiVersion: v1\nitems:\n- a: 1\n- name: " + "x".repeat(InputText.MAX_DOCUMENT_CHARS + 1)
        + "\nkind: List\n";
    assertThatThrownBy(() -> YamlLoader.stream("t", new java.io.StringReader(tooBigItem), true, (r, s) -> { }))
        .hasMessageContaining("List item larger than 3 MiB")
        .satisfies(e -> assertThat(((TextInputException) e).line()).isEqualTo(4));
  }

  @Test
  void syntaxErrorsArePlainWordsWithTheLine() {
    assertThatThrownBy(() -> YamlLoader.compose("t", "a: 1\nb: [1, 2\nc: 3\n"))
        .isInstanceOfSatisfying(TextInputException.class, e -> assertThat(e.line()).isPositive())
        .hasMessageStartingWith("YAML syntax error: ").hasMessageNotContaining("java").hasMessageNotContaining("Exception");
  }

  @Test
  void positionsReportEveryKeyAndItemLine() {
    List<Node> docs = YamlLoader.compose("t", "a:\n  b: 1\n  c:\n    - x\n    - y\n");
    Map<Object, Map<String, Integer>> keys = new IdentityHashMap<>();
    List<List<Integer>> items = new ArrayList<>();
    YamlLoader.plain(docs.get(0), new YamlLoader.Positions() {
      @Override
      public void map(Map<String, Object> map, int line, Map<String, Integer> keyLines) {
        keys.put(map, keyLines);
      }

      @Override
      public void list(List<Object> list, int line, List<Integer> itemLines) {
        items.add(itemLines);
      }
    });
    assertThat(keys.values()).contains(Map.of("a", 1), Map.of("b", 2, "c", 3));
    assertThat(items).containsExactly(List.of(4, 5));
  }

  @Test
  void textMustBeUtf8AndMayStartWithABom() {
    assertThat(InputText.decode("\uFEFFa: 1".getBytes(StandardCharsets.UTF_8))).isEqualTo("a: 1");
    byte[] latin1 = "a: 1\nb: caf\u00e9\n".getBytes(StandardCharsets.ISO_8859_1);
    assertThatThrownBy(() -> InputText.decode(latin1))
        .isInstanceOfSatisfying(TextInputException.class, e -> assertThat(e.line()).isEqualTo(2))
        .hasMessageStartingWith("not UTF-8 text");
  }
}
