package dev.headroom.cli;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;
import org.snakeyaml.engine.v2.api.Dump;
import org.snakeyaml.engine.v2.api.DumpSettings;
import org.snakeyaml.engine.v2.common.FlowStyle;
import org.snakeyaml.engine.v2.common.NonPrintableStyle;
import org.snakeyaml.engine.v2.common.ScalarStyle;
import org.snakeyaml.engine.v2.nodes.Node;
import org.snakeyaml.engine.v2.nodes.Tag;
import org.snakeyaml.engine.v2.representer.StandardRepresenter;
import org.snakeyaml.engine.v2.schema.CoreSchema;

/**
 * The serialisation of command output: fabric8's Jackson 3 mapper for JSON, and {@link #yaml} for YAML as kubectl
 * prints it: plain scalars unquoted, a string quoted only where a YAML 1.1 reader (kubectl's) or a YAML 1.2 reader
 * would read it as another type ({@code "true"}, {@code "no"}, {@code "123"}, {@code "1e3"}, {@code "~"}, a date) or
 * where a plain scalar cannot hold it (the emitter's own analysis: leading or trailing spaces, {@code ": "},
 * {@code " #"}, indicators, the empty string); multi-line strings as literal blocks where the emitter allows one;
 * non-printable characters escaped in a double-quoted string (never {@code !!binary}).
 */
public final class OutputSerialization {

  /** Shared, thread-safe instance. */
  public static final KubernetesSerialization INSTANCE = new KubernetesSerialization();

  /** YAML 1.1 booleans (yaml.org/type/bool), which kubectl's reader still honours, and the nulls; any case. */
  private static final Set<String> WORDS = Set.of("y", "yes", "n", "no", "true", "false", "on", "off", "null", "~");
  /**
   * What a YAML 1.1 reader (yaml.org/type/int, /float: binary, octal, hex, sexagesimal, underscores), a YAML 1.2
   * reader or Go's number parsing behind kubectl's reader (which drops underscores first and knows {@code -Inf})
   * could take for a number. Quantities such as {@code 1Gi} or {@code 100m} stay plain, as kubectl prints them.
   */
  private static final Pattern NUMBER = Pattern.compile("[-+]?(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+"
      + "|0[xX][0-9a-fA-F_.]*[pP][-+]?[0-9]+|[0-9][0-9_]*(:[0-5]?[0-9])*(\\.[0-9_.]*)?([eE][-+]?[0-9]+)?"
      + "|\\.[0-9_.]+([eE][-+]?[0-9]+)?|(?i)\\.?(inf|infinity|nan))");
  /** YAML 1.1 timestamps (yaml.org/type/timestamp) start with a year. */
  private static final Pattern DATE = Pattern.compile("[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}([Tt \\t].*)?");

  /**
   * Line breaks other than LF (CR, and NEL, LS and PS that YAML 1.1 reads as line breaks) and the byte-order mark,
   * which go-yaml skips at the start of a line: strings holding one are double-quoted, the mark escaped.
   */
  private static final Pattern OTHER_BREAKS = Pattern.compile("[\\r\\u0085\\u2028\\u2029\\uFEFF]");

  private OutputSerialization() {}

  /** One YAML document, starting with {@code ---}, of what fabric8's mapper makes of the object. */
  public static String yaml(Object object) {
    Object tree = object instanceof String ? object : INSTANCE.convertValue(object, Object.class);
    DumpSettings settings = DumpSettings.builder().setExplicitStart(true).setDefaultFlowStyle(FlowStyle.BLOCK)
        .setWidth(Integer.MAX_VALUE).setSchema(new CoreSchema()).setNonPrintableStyle(NonPrintableStyle.ESCAPE).build();
    String text = new Dump(settings, new KubectlRepresenter(settings)).dumpToString(tree);
    // NEL, LS, PS and the byte-order mark are only ever inside a double-quoted scalar (see OTHER_BREAKS), where the
    // emitter writes them raw and their escapes mean the same
    StringBuilder b = new StringBuilder(text.length());
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      if (c == '\u0085' || c == '\u2028' || c == '\u2029' || c == '\uFEFF') {
        b.append(String.format("\\u%04X", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }

  /**
   * Whether a string must be quoted so that it reads back as a string; the emitter adds the quoting that plain
   * syntax needs on its own.
   */
  static boolean looksLikeAnotherType(String s) {
    return s.isEmpty() || WORDS.contains(s.toLowerCase(Locale.ROOT)) || "=".equals(s) || "<<".equals(s)
        || NUMBER.matcher(s).matches() || NUMBER.matcher(s.replace("_", "")).matches() || DATE.matcher(s).matches();
  }

  private static final class KubectlRepresenter extends StandardRepresenter {
    KubectlRepresenter(DumpSettings settings) {
      super(settings);
    }

    @Override
    protected Node representScalar(Tag tag, String value, ScalarStyle style) {
      ScalarStyle chosen = style;
      if (Tag.STR.equals(tag) && (style == ScalarStyle.PLAIN || style == ScalarStyle.LITERAL)) {
        // YAML 1.1 (kubectl's reader) also breaks lines at NEL, LS and PS, which YAML 1.2 does not: in a plain
        // scalar or a literal block they would end the line, so such strings are double-quoted (escaped \N \L \P)
        chosen = OTHER_BREAKS.matcher(value).find() || looksLikeAnotherType(value) ? ScalarStyle.DOUBLE_QUOTED
            : value.indexOf('\n') >= 0 ? ScalarStyle.LITERAL : ScalarStyle.PLAIN;
      }
      return super.representScalar(tag, value, chosen);
    }
  }
}
