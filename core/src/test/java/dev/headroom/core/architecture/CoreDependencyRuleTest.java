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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The dependency rule of {@code core}, checked on its compiled main classes: no type of the Kubernetes client
 * ({@code io.fabric8.kubernetes.client..}, which {@code core} could reach through {@code api}; the model,
 * {@code io.fabric8.kubernetes.api.model..}, is allowed) and no file, network, process or console I/O. The check
 * reads every class file's constant pool, so it sees each class, method and field a class refers to, including
 * those only in signatures. Exception types are allowed: naming why a caller's read failed
 * ({@code InputText.whyUnreadable}) does no I/O.
 *
 * <p>The determinism rule, checked on the same classes' bytecode: no method reads the wall clock
 * ({@code Instant.now()} and the other {@code java.time} {@code now} without a {@code Clock},
 * {@code System.currentTimeMillis}, {@code System.nanoTime}, {@code Clock.system*}) or unseeded randomness
 * ({@code Math.random}, {@code ThreadLocalRandom}, {@code new Random()}, {@code SecureRandom},
 * {@code UUID.randomUUID}); method references and lambdas count. Time comes through the loop's {@code now} (the
 * caller's clock), randomness from a {@code Random} seeded by the options. A violation names the class, its method
 * and the call.
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

  @Test
  void coreMainClassesUseNoKubernetesClientTypeAndDoNoIo() throws IOException, URISyntaxException {
    Path classes = coreMainClasses();
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    for (Path file : classFiles(classes)) {
      scanned++;
      try (InputStream in = Files.newInputStream(file)) {
        for (String v : violations(new DataInputStream(in))) {
          violations.add(classes.relativize(file) + " uses " + v);
        }
      }
    }
    assertThat(scanned).as("class files scanned").isGreaterThan(100);
    assertThat(violations).as("core must use no Kubernetes client type and do no I/O (move it behind a port)").isEmpty();
  }

  @Test
  void coreMainClassesReadNoWallClockAndNoUnseededRandomness() throws IOException, URISyntaxException {
    List<String> violations = new ArrayList<>();
    int scanned = 0;
    for (Path file : classFiles(coreMainClasses())) {
      scanned++;
      try (InputStream in = Files.newInputStream(file)) {
        violations.addAll(nondeterminism(ClassFile.read(new DataInputStream(in))));
      }
    }
    assertThat(scanned).as("class files scanned").isGreaterThan(100);
    assertThat(violations)
        .as("core must be deterministic: time comes through the loop's now or a Clock passed in, randomness from a "
            + "seeded Random")
        .isEmpty();
  }

  @Test
  void theDeterminismRuleNamesClassMethodAndWhatItCalls() throws IOException {
    assertThat(nondeterminism(fixture(ReadsTheClock.class))).containsExactly(
        ReadsTheClock.class.getName() + ".stamp calls java.time.Instant.now() (the wall clock)",
        ReadsTheClock.class.getName() + ".millis calls java.lang.System.currentTimeMillis() (the wall clock)",
        ReadsTheClock.class.getName() + ".elapsed calls java.lang.System.nanoTime() (the wall clock)",
        ReadsTheClock.class.getName() + ".today calls java.time.LocalDate.now(java.time.ZoneId) (the wall clock)",
        ReadsTheClock.class.getName() + ".zone calls java.time.Clock.systemUTC() (the wall clock)",
        ReadsTheClock.class.getName() + ".later calls java.time.Instant.now() (the wall clock)",
        ReadsTheClock.class.getName() + ".roll calls java.util.Random.<init>() (unseeded randomness)",
        ReadsTheClock.class.getName() + ".coin calls java.lang.Math.random() (unseeded randomness)",
        ReadsTheClock.class.getName() + ".dice calls java.util.concurrent.ThreadLocalRandom.current() (unseeded randomness)",
        ReadsTheClock.class.getName() + ".lambda$id$0 calls java.util.UUID.randomUUID() (unseeded randomness)");
    assertThat(nondeterminism(fixture(Deterministic.class))).isEmpty();
  }

  /** Reads the wall clock and unseeded randomness in every way the rule bans (a fixture: never called). */
  @SuppressWarnings("unused")
  static final class ReadsTheClock {
    java.time.Instant stamp() {
      return java.time.Instant.now();
    }

    long millis() {
      return System.currentTimeMillis();
    }

    long elapsed() {
      return System.nanoTime();
    }

    java.time.LocalDate today() {
      return java.time.LocalDate.now(java.time.ZoneOffset.UTC);
    }

    java.time.Clock zone() {
      return java.time.Clock.systemUTC();
    }

    java.util.function.Supplier<java.time.Instant> later() {
      return java.time.Instant::now;
    }

    int roll() {
      return new java.util.Random().nextInt();
    }

    double coin() {
      return Math.random();
    }

    int dice() {
      return java.util.concurrent.ThreadLocalRandom.current().nextInt();
    }

    java.util.function.Supplier<String> id() {
      return () -> java.util.UUID.randomUUID().toString();
    }
  }

  /** Takes time and randomness from what it is given: the rule passes it. */
  @SuppressWarnings("unused")
  static final class Deterministic {
    java.time.Instant stamp(java.time.Clock clock) {
      return java.time.Instant.now(clock);
    }

    java.time.Instant later(java.time.Instant now) {
      return now.plusSeconds(1);
    }

    int roll(long seed) {
      return new java.util.Random(seed).nextInt();
    }

    java.util.UUID id(String name) {
      return java.util.UUID.nameUUIDFromBytes(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }
  }

  /** Every call one class makes to the wall clock or to unseeded randomness, as "class.method calls member (why)". */
  static List<String> nondeterminism(ClassFile c) {
    List<String> out = new ArrayList<>();
    for (ClassFile.Method m : c.methods) {
      for (ClassFile.Member used : m.uses()) {
        String why = nondeterministic(used);
        if (why != null) {
          out.add(c.className + "." + m.name() + " calls " + used.display() + " (" + why + ")");
        }
      }
    }
    return out;
  }

  /** Types whose {@code now(...)} reads the system clock unless it is given a {@code Clock}. */
  static final Set<String> NOW_TYPES = Set.of("java/time/Instant", "java/time/LocalDate", "java/time/LocalDateTime",
      "java/time/LocalTime", "java/time/ZonedDateTime", "java/time/OffsetDateTime", "java/time/OffsetTime",
      "java/time/Year", "java/time/YearMonth", "java/time/MonthDay");

  /** Why a call is nondeterministic ("the wall clock", "unseeded randomness"), or null when it is not. */
  static String nondeterministic(ClassFile.Member m) {
    String owner = m.owner();
    String name = m.name();
    String wallClock = "the wall clock";
    String unseeded = "unseeded randomness";
    if (NOW_TYPES.contains(owner) && name.equals("now") && !m.descriptor().startsWith("(Ljava/time/Clock;)")) {
      return wallClock;
    }
    if (owner.equals("java/lang/System") && (name.equals("currentTimeMillis") || name.equals("nanoTime"))) {
      return wallClock;
    }
    if (owner.equals("java/time/Clock")
        && (name.startsWith("system") || name.startsWith("tick") && !m.descriptor().startsWith("(Ljava/time/Clock;"))) {
      return wallClock;
    }
    if (owner.equals("java/time/InstantSource") && name.equals("system")) {
      return wallClock;
    }
    if ((owner.equals("java/lang/Math") || owner.equals("java/lang/StrictMath")) && name.equals("random")) {
      return unseeded;
    }
    if (owner.equals("java/util/concurrent/ThreadLocalRandom") && name.equals("current")
        || owner.equals("java/security/SecureRandom") && name.equals("<init>")) {
      return unseeded;
    }
    if ((owner.equals("java/util/Random") || owner.equals("java/util/SplittableRandom")) && name.equals("<init>")
        && m.descriptor().equals("()V")) {
      return unseeded;
    }
    if (owner.equals("java/util/UUID") && name.equals("randomUUID")) {
      return unseeded;
    }
    return null;
  }

  private static ClassFile fixture(Class<?> type) throws IOException {
    String file = type.getName().substring(type.getPackageName().length() + 1) + ".class";
    try (InputStream in = type.getResourceAsStream(file)) {
      return ClassFile.read(new DataInputStream(in));
    }
  }

  private static Path coreMainClasses() throws URISyntaxException {
    Path classes = Path.of(AutoscalerOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    assertThat(classes.resolve("dev/headroom/core")).as("core's main classes at " + classes).isDirectory();
    return classes;
  }

  private static List<Path> classFiles(Path classes) throws IOException {
    try (Stream<Path> files = Files.walk(classes)) {
      return files.filter(p -> p.toString().endsWith(".class")).sorted().toList();
    }
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
    ClassFile c = ClassFile.read(in);
    Set<String> out = new TreeSet<>();
    for (String name : c.referencedClasses) {
      if (banned(name)) {
        out.add(name);
      }
    }
    for (ClassFile.Member f : c.fieldRefs) {
      if ("java/lang/System".equals(f.owner()) && BANNED_SYSTEM_FIELDS.contains(f.name())) {
        out.add("java/lang/System." + f.name());
      }
    }
    return out;
  }

  private static boolean banned(String name) {
    if (name.endsWith("Exception")) {
      return false;
    }
    return BANNED_CLASSES.contains(name) || BANNED_PREFIXES.stream().anyMatch(name::startsWith);
  }
}
