package dev.headroom.e2e;

import dev.headroom.controller.http.HttpEndpoints;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * {@code headroom run} as its own process, through the real entry point ({@code dev.headroom.cli.Main}) on this
 * JVM's class path, with its own client-certificate user so the audit log tells its requests apart. Its output goes
 * to {@code target/e2e/NAME.log}.
 */
public final class HeadroomProcess implements AutoCloseable {
  private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

  private final String user;
  private final int httpPort;
  private final Path log;
  private final Process process;

  private HeadroomProcess(String user, int httpPort, Path log, Process process) {
    this.user = user;
    this.httpPort = httpPort;
    this.log = log;
    this.process = process;
  }

  /**
   * Starts {@code headroom run --kubeconfig <user's> --http-port <free> --log-format=text ARGS} as user {@code user}
   * (group system:masters) and waits until {@code /readyz} answers 200.
   */
  public static HeadroomProcess start(TestBed bed, String user, List<String> args) {
    Path kubeconfig = bed.user(user, "system:masters");
    return startAs(bed, user, kubeconfig, args);
  }

  /** As {@link #start} with a given kubeconfig (whose user is {@code user}). */
  public static HeadroomProcess startAs(TestBed bed, String user, Path kubeconfig, List<String> args) {
    return startAs(bed, user, kubeconfig, TEST_JVM, args);
  }

  /** The JVM flags of the tier's Headroom processes (a small heap, C1 only: quick to start on a loaded machine). */
  public static final List<String> TEST_JVM = List.of("-Xmx256m", "-XX:TieredStopAtLevel=1");
  /** The JVM flags of the product: the Dockerfile's, with the heap deploy/'s 1 GiB memory limit gives it (75 %). */
  public static final List<String> PRODUCT_JVM = List.of("-Xmx768m", "-XX:+ExitOnOutOfMemoryError");

  /** As {@link #startAs} with these JVM flags. */
  public static HeadroomProcess startAs(TestBed bed, String user, Path kubeconfig, List<String> jvm, List<String> args) {
    return startAs(bed, user, kubeconfig, jvm, System.getProperty("java.class.path"), args, Duration.ofSeconds(60));
  }

  /** As {@link #startAs} with the JVM's class path (e.g. another build's {@code headroom.jar}, for a before/after run). */
  public static HeadroomProcess startAs(TestBed bed, String user, Path kubeconfig, List<String> jvm, String classpath, List<String> args) {
    return startAs(bed, user, kubeconfig, jvm, classpath, args, Duration.ofSeconds(60));
  }

  /** As above, waiting at most {@code ready} for {@code /readyz} (the informers' first lists at size take longer). */
  public static HeadroomProcess startAs(TestBed bed, String user, Path kubeconfig, List<String> jvm, List<String> args, Duration ready) {
    return startAs(bed, user, kubeconfig, jvm, System.getProperty("java.class.path"), args, ready);
  }

  /** As above, with the JVM's class path. */
  public static HeadroomProcess startAs(TestBed bed, String user, Path kubeconfig, List<String> jvm, String classpath, List<String> args,
      Duration ready) {
    HeadroomProcess h = launch(bed, user, kubeconfig, jvm, classpath, args);
    try {
      await(user + " /readyz (log: " + h.log + ")").atMost(ready).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            h.checkAlive();
            return h.ready();
          });
    } catch (RuntimeException | Error e) {
      h.close(); // the caller never gets it, so nothing else would stop it
      throw e;
    }
    return h;
  }

  /**
   * As {@link #startAs} but waits only until {@code /healthz} answers 200 (the process is up; it need not be ready:
   * a missing CRD or permission keeps {@code /readyz} at 503).
   */
  public static HeadroomProcess launch(TestBed bed, String user, Path kubeconfig, List<String> args) {
    return launch(bed, user, kubeconfig, TEST_JVM, System.getProperty("java.class.path"), args);
  }

  private static HeadroomProcess launch(TestBed bed, String user, Path kubeconfig, List<String> jvm, String classpath, List<String> args) {
    int port = freePort();
    Path log = bed.out().resolve(user.replace(':', '_') + ".log");
    List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
    cmd.addAll(jvm);
    int shown = cmd.size();
    cmd.addAll(List.of("-cp", classpath, "dev.headroom.cli.Main", "run",
        "--kubeconfig", kubeconfig.toString(), "--http-port", Integer.toString(port), "--log-format", "text"));
    cmd.addAll(args);
    try {
      Files.writeString(log, String.join(" ", jvm) + " " + String.join(" ", cmd.subList(shown + 2, cmd.size())) + System.lineSeparator());
      Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
      HeadroomProcess h = new HeadroomProcess(user, port, log, p);
      await(user + " /healthz (log: " + log + ")").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
          .until(() -> {
            h.checkAlive();
            return h.get(HttpEndpoints.HEALTHZ).code() == 200;
          });
      return h;
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Whether {@code /readyz} answers 200. */
  public boolean ready() {
    return readyz().code() == 200;
  }

  /** An answer of the HTTP endpoints; code 0 when nothing answered. */
  public record Answer(int code, String body) {}

  /** {@code GET /readyz}. */
  public Answer readyz() {
    return get(HttpEndpoints.READYZ);
  }

  /** {@code GET /healthz}. */
  public Answer healthz() {
    return get(HttpEndpoints.HEALTHZ);
  }

  /** {@code GET path} on the plain HTTP port. */
  public Answer get(String path) {
    try {
      HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + path))
          .timeout(Duration.ofSeconds(2)).build(), HttpResponse.BodyHandlers.ofString());
      return new Answer(r.statusCode(), r.body());
    } catch (IOException e) {
      return new Answer(0, e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return new Answer(0, e.toString());
    }
  }

  /** Every line Headroom has logged so far. */
  public List<String> logLines() {
    try {
      return Files.readAllLines(log);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Throws if the process has exited (with its exit code and log). */
  public void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("headroom run exited with " + process.exitValue() + "; log: " + log);
    }
  }

  /** The {@code /metrics} text. */
  public String metrics() throws IOException, InterruptedException {
    return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + httpPort + "/metrics")).build(),
        HttpResponse.BodyHandlers.ofString()).body();
  }

  /** The user name the API server sees. */
  public String user() {
    return user;
  }

  public Path log() {
    return log;
  }

  public boolean alive() {
    return process.isAlive();
  }

  /** The process id (its JVM; {@code /proc/PID} holds its CPU time and peak RSS). */
  public long pid() {
    return process.pid();
  }

  /**
   * The heap in use after {@code gcs} full collections ({@code jcmd GC.run}, then the {@code used NNNK} of
   * {@code GC.heap_info}), in KiB; -1 when jcmd gave nothing to read.
   */
  public long heapAfterFullGcKb(Path dir, int gcs) {
    String pid = Long.toString(pid());
    for (int i = 0; i < gcs; i++) {
      Scripts.run(dir, java.util.Map.of(), java.time.Duration.ofMinutes(2), "jcmd", pid, "GC.run");
    }
    return heapUsedKb(Scripts.run(dir, java.util.Map.of(), java.time.Duration.ofMinutes(1), "jcmd", pid, "GC.heap_info"));
  }

  /** {@code used NNNK} of the heap in {@code jcmd GC.heap_info}'s first line, in KiB; -1 when absent. */
  static long heapUsedKb(String heapInfo) {
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("used (\\d+)K").matcher(heapInfo);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }

  /** A number field of {@code /proc/PID/status} ({@code Threads}, {@code VmRSS} and {@code VmHWM} in KiB), -1 when absent. */
  public long procStatus(String field) throws java.io.IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid() + "/status"))) {
      if (line.startsWith(field + ":")) {
        return Long.parseLong(line.replaceAll("[^0-9]", ""));
      }
    }
    return -1;
  }

  /** The process's open sockets ({@code /proc/PID/fd} entries linking to {@code socket:}). */
  public long openSockets() throws java.io.IOException {
    long sockets = 0;
    try (java.util.stream.Stream<Path> fds = Files.list(Path.of("/proc/" + pid() + "/fd"))) {
      for (Path fd : fds.toList()) {
        try {
          if (Files.readSymbolicLink(fd).toString().startsWith("socket:")) {
            sockets++;
          }
        } catch (java.io.IOException e) {
          // closed meanwhile
        }
      }
    }
    return sockets;
  }

  /** Thread names ({@code jcmd Thread.print}), digits replaced by {@code #}, counted. */
  public java.util.Map<String, Integer> threadNames(Path dir) {
    java.util.Map<String, Integer> out = new java.util.TreeMap<>();
    java.util.regex.Matcher m = java.util.regex.Pattern.compile("(?m)^\"([^\"]*)\"")
        .matcher(Scripts.run(dir, java.util.Map.of(), java.time.Duration.ofMinutes(1), "jcmd", Long.toString(pid()), "Thread.print"));
    while (m.find()) {
      out.merge(m.group(1).replaceAll("[0-9]+", "#"), 1, Integer::sum);
    }
    return out;
  }

  /** SIGKILL: the process ends at once, without releasing its Lease or finishing a write; waits until it is gone. */
  public void kill() {
    process.destroyForcibly();
    try {
      process.waitFor(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** SIGTERM (Headroom finishes its reconcile and releases its Lease), then waits; SIGKILL after 30 s. */
  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(30, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  private static final java.util.Set<Integer> HANDED_OUT = java.util.concurrent.ConcurrentHashMap.newKeySet();

  /**
   * A port for a server of the test to listen on, drawn below the kernel's ephemeral range as e2e/ports.sh draws the
   * bed's: a port the kernel hands out for {@code new ServerSocket(0)} is in that range, where the tests' own client
   * connections take their local ports, so it can be taken between this check and the server's bind.
   */
  public static int freePort() {
    int low = ephemeralLow();
    int lo = low - 20000 >= 1000 ? 20000 : Math.max(1024, low - 10000);
    java.util.concurrent.ThreadLocalRandom random = java.util.concurrent.ThreadLocalRandom.current();
    for (int attempt = 0; attempt < 200; attempt++) {
      int port = lo + random.nextInt(low - lo);
      if (!HANDED_OUT.add(port)) {
        continue;
      }
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new java.net.InetSocketAddress(port), 1);
        return port;
      } catch (IOException taken) {
        // in use on some interface: draw again
      }
    }
    throw new IllegalStateException("no free port below " + low + " after 200 draws");
  }

  private static int ephemeralLow() {
    try {
      // read to the end of the stream: Files.readString trusts the size /proc reports and returns one character
      String range;
      try (java.io.InputStream in = Files.newInputStream(Path.of("/proc/sys/net/ipv4/ip_local_port_range"))) {
        range = new String(in.readAllBytes(), java.nio.charset.StandardCharsets.US_ASCII).trim();
      }
      int low = Integer.parseInt(range.split("\\s+")[0]);
      return low >= 2048 ? low : 32768;
    } catch (IOException | RuntimeException e) {
      return 32768;
    }
  }
}
