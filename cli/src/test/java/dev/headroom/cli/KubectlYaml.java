package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.api.lowlevel.Parse;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.events.Event;
import org.snakeyaml.engine.v2.events.ScalarEvent;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.resolver.ScalarResolver;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * Test helper: how kubectl's YAML 1.1 reader would type the plain scalars of a document. The patterns are the
 * regular expressions of the YAML 1.1 type repository (yaml.org/type/bool, null, int, float, timestamp, merge,
 * value), written out again here rather than shared with the production writer, plus what Go's
 * {@code strconv.ParseInt(s, 0, 64)} and {@code ParseFloat} accept (go-yaml v2 tries both on a plain scalar that
 * starts with a digit, a sign or a dot, after dropping underscores).
 */
public final class KubectlYaml {

  private static final List<Pattern> YAML_11 = List.of(
      Pattern.compile("y|Y|yes|Yes|YES|n|N|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF"),
      Pattern.compile("~|null|Null|NULL|"),
      Pattern.compile("[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(:[0-5]?[0-9])+"),
      Pattern.compile("[-+]?([0-9][0-9_]*)?\\.[0-9.]*([eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(:[0-5]?[0-9])+\\.[0-9_]*"
          + "|[-+]?\\.(inf|Inf|INF)|\\.(nan|NaN|NAN)"),
      Pattern.compile("[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]|[0-9][0-9][0-9][0-9]-[0-9][0-9]?-[0-9][0-9]?([Tt]|[ \\t]+)"
          + "[0-9][0-9]?:[0-9][0-9]:[0-9][0-9](\\.[0-9]*)?(([ \\t]*)Z|[-+][0-9][0-9]?(:[0-9][0-9])?)?"),
      Pattern.compile("<<|="));
  private static final List<Pattern> GO_NUMBERS = List.of(
      Pattern.compile("[-+]?(0[xX][0-9a-fA-F]+|0[oO]?[0-7]+|0[bB][01]+|[0-9]+)"),
      Pattern.compile("[-+]?(([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?|0[xX]([0-9a-fA-F]+\\.?[0-9a-fA-F]*|\\.[0-9a-fA-F]+)"
          + "[pP][-+]?[0-9]+)"),
      Pattern.compile("(?i)[-+]?(inf|infinity|nan)"));

  /** NEL, LS and PS: line breaks in YAML 1.1 (and to go-yaml), not in YAML 1.2. */
  private static final Pattern YAML_11_BREAKS = Pattern.compile("[\\u0085\\u2028\\u2029]");
  private static final ScalarResolver CORE = new CoreSchema().getScalarResolver();

  private KubectlYaml() {}

  /**
   * The plain scalars of the text that a YAML 1.2 reader reads as strings but a YAML 1.1 reader (kubectl's) would
   * not (plain scalars that YAML 1.2 reads as numbers, booleans or null are the numbers and booleans the document
   * holds).
   */
  public static List<String> plainScalarsOfAnotherType(String text) {
    List<String> bad = new ArrayList<>();
    for (Event e : new Parse(LoadSettings.builder().build()).parseString(text)) {
      if (e instanceof ScalarEvent s && s.getScalarStyle() != ScalarStyle.DOUBLE_QUOTED
          && YAML_11_BREAKS.matcher(s.getValue()).find()) {
        bad.add(s.getValue()); // a YAML 1.1 reader breaks the line there: the scalar or the document changes
      }
      if (e instanceof ScalarEvent s && s.getScalarStyle() == ScalarStyle.PLAIN && s.getTag().isEmpty()) {
        String v = s.getValue();
        if (!Tag.STR.equals(CORE.resolve(v, true))) {
          continue;
        }
        boolean yaml11 = YAML_11.stream().anyMatch(p -> p.matcher(v).matches());
        String go = v.replace("_", "");
        boolean goNumber = !v.isEmpty() && "+-.0123456789".indexOf(v.charAt(0)) >= 0
            && GO_NUMBERS.stream().anyMatch(p -> p.matcher(go).matches());
        if (yaml11 || goNumber) {
          bad.add(v);
        }
      }
    }
    return bad;
  }

  /** The plain scalars of the text. */
  public static List<String> plainScalars(String text) {
    List<String> plain = new ArrayList<>();
    for (Event e : new Parse(LoadSettings.builder().build()).parseString(text)) {
      if (e instanceof ScalarEvent s && s.getScalarStyle() == ScalarStyle.PLAIN) {
        plain.add(s.getValue());
      }
    }
    return plain;
  }

  /** Asserts that a kubectl-style reader gets strings back wherever a YAML 1.2 reader gets strings. */
  public static void assertStringsReadBackAsStrings(String text) {
    assertThat(plainScalarsOfAnotherType(text)).as("plain scalars a YAML 1.1 reader would not read as strings").isEmpty();
  }
}
