package dev.headroom.core.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.autoscaler.AutoscalerOptions;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of {@code core}, checked on its compiled main classes: no type of the Kubernetes client
 * ({@code io.fabric8.kubernetes.client..}, which {@code core} could reach through {@code api}; the model,
 * {@code io.fabric8.kubernetes.api.model..}, is allowed) and no file, network, process or console I/O. The check
 * reads every class file's constant pool, so it sees each class, method and field a class refers to, including
 * those only in signatures. Exception types are allowed: naming why a caller's read failed
 * ({@code InputText.whyUnreadable}) does no I/O.
 */
class CoreDependencyRuleTest {

  /** Referenced classes whose internal name starts with one of these break the rule. */
  static final List<String> BANNED_PREFIXES = List.of(
      "io/fabric8/kubernetes/client/",
      "java/io/File",          // File, FileInputStream, FileOutputStream, FileReader, FileWriter, FileDescriptor
      "java/io/RandomAccessFile",
      "java/io/Console",
      "java/nio/file/",
      "java/nio/channels/",
      "java/net/",
      "javax/net/");

  /** These classes break the rule too. */
  static final Set<String> BANNED_CLASSES = Set.of("java/lang/Runtime", "java/lang/ProcessBuilder", "java/lang/Process");

  /** Fields of {@code java.lang.System} that are the process's console. */
  static final Set<String> BANNED_SYSTEM_FIELDS = Set.of("in", "out", "err");

  private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([A-Za-z0-9_$/]+)[;<]");

  @Test
  void coreMainClassesUseNoKubernetesClientTypeAndDoNoIo() throws IOException, URISyntaxException {
    Path classes = Path.of(AutoscalerOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(classes.resolve("dev/headroom/core")).as("core's main classes at " + classes).isDirectory();
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    try (Stream<Path> files = Files.walk(classes)) {
      for (Path file : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
        scanned++;
        try (InputStream in = Files.newInputStream(file)) {
          for (String v : violations(new DataInputStream(in))) {
            violations.add(classes.relativize(file) + " uses " + v);
          }
        }
      }
    }
    assertThat(scanned).as("class files scanned").isGreaterThan(100);
    assertThat(violations).as("core must use no Kubernetes client type and do no I/O (move it behind a port)").isEmpty();
  }

  @Test
  void theScanSeesABannedReference() throws IOException {
    try (InputStream in = CoreDependencyRuleTest.class.getResourceAsStream("CoreDependencyRuleTest.class")) {
      // this test class itself reads files: the rule finds it
      assertThat(violations(new DataInputStream(in))).contains("java/nio/file/Files", "java/nio/file/Path");
    }
    try (InputStream in = Sample.class.getResourceAsStream("CoreDependencyRuleTest$Sample.class")) {
      assertThat(violations(new DataInputStream(in))).containsExactly("java/lang/System.out");
    }
  }

  static final class Sample {
    void print() {
      System.out.println("not in core");
    }
  }

  /** The banned classes and fields one class file refers to. */
  static Set<String> violations(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    String[] utf8 = new String[count];
    int[] classIndex = new int[count];
    int[][] fieldRef = new int[count][];
    int[] nameAndTypeName = new int[count];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> utf8[i] = in.readUTF();
        case 7 -> classIndex[i] = in.readUnsignedShort();
        case 8, 16, 19, 20 -> in.readUnsignedShort();
        case 9 -> fieldRef[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
        case 10, 11, 17, 18 -> in.readInt();
        case 12 -> {
          nameAndTypeName[i] = in.readUnsignedShort();
          in.readUnsignedShort();
        }
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++;
        }
        case 15 -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + tag);
      }
    }
    Set<String> referenced = new TreeSet<>();
    for (int i = 1; i < count; i++) {
      if (classIndex[i] != 0) {
        String name = utf8[classIndex[i]];
        name = name.startsWith("[") ? arrayElement(name) : name;
        if (name != null) {
          referenced.add(name);
        }
      }
      if (utf8[i] != null) {
        Matcher m = DESCRIPTOR_CLASS.matcher(utf8[i]);
        while (m.find()) {
          referenced.add(m.group(1));
        }
      }
    }
    Set<String> out = new TreeSet<>();
    for (String name : referenced) {
      if (banned(name)) {
        out.add(name);
      }
    }
    for (int i = 1; i < count; i++) {
      if (fieldRef[i] != null && "java/lang/System".equals(utf8[classIndex[fieldRef[i][0]]])
          && BANNED_SYSTEM_FIELDS.contains(utf8[nameAndTypeName[fieldRef[i][1]]])) {
        out.add("java/lang/System." + utf8[nameAndTypeName[fieldRef[i][1]]]);
      }
    }
    return out;
  }

  private static String arrayElement(String descriptor) {
    Matcher m = DESCRIPTOR_CLASS.matcher(descriptor);
    return m.find() ? m.group(1) : null;
  }

  private static boolean banned(String name) {
    if (name.endsWith("Exception")) {
      return false;
    }
    return BANNED_CLASSES.contains(name) || BANNED_PREFIXES.stream().anyMatch(name::startsWith);
  }
}
