package dev.headroom.cli.sim;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * The built-in scenario's {@code report.html} in headless Chromium: no error and no console error or warning, no
 * load from outside the page, every chart's canvas drawn (its series' colours on it), and the verdict shown.
 * A copy of the page gets {@code report-probe.html} injected at the top of its head (a Content-Security-Policy that
 * blocks and reports any load, and a script that records errors and canvas pixels into the DOM), and Chromium
 * prints the DOM after a virtual-time budget ({@code --dump-dom}). Skipped, with one line saying why, when no
 * Chromium binary is found ({@code chromium}, {@code chromium-browser}, {@code google-chrome} on the PATH, or
 * {@code -Dheadroom.chromium=PATH}); {@code .ci/run} installs Debian's {@code chromium} package. With
 * {@code -Dheadroom.report.screenshot=docs/report.png} it also writes the screenshot shown in the README.
 */
class ReportInBrowserTest {

  private static final Pattern PROBE = Pattern.compile("<pre id=\"headroom-probe\">(.*?)</pre>", Pattern.DOTALL);
  /** An attribute or CSS reference that would make the browser fetch something from outside the page. */
  private static final Pattern REMOTE = Pattern.compile(
      "(?i)(\\b(src|href|action|poster|srcset)\\s*=\\s*[\"']?\\s*(https?:|//|ftp:|ws:))|@import|url\\(\\s*[\"']?(https?:|//)");
  private static final long TIMEOUT_SECONDS = 120;

  static Optional<Path> chromium() {
    String explicit = System.getProperty("headroom.chromium", System.getenv("HEADROOM_CHROMIUM"));
    if (explicit != null && !explicit.isBlank()) {
      return Optional.of(Path.of(explicit)).filter(Files::isExecutable);
    }
    String path = Optional.ofNullable(System.getenv("PATH")).orElse("");
    return Stream.of(path.split(File.pathSeparator)).filter(d -> !d.isEmpty())
        .flatMap(d -> Stream.of("chromium", "chromium-browser", "google-chrome", "google-chrome-stable").map(n -> Path.of(d, n)))
        .filter(Files::isExecutable).findFirst();
  }

  private static Path requireChromium() {
    Optional<Path> c = chromium();
    assumeTrue(c.isPresent(), "no Chromium binary (chromium, chromium-browser or google-chrome on the PATH, or "
        + "-Dheadroom.chromium=PATH): the report-in-a-browser test is skipped; .ci/run installs Debian's chromium package");
    return c.get();
  }

  /** Runs headless Chromium on a local file with the network resolved to nothing; returns its standard output. */
  private static String chromium(Path binary, Path work, String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--headless", "--no-sandbox", "--disable-gpu",
        "--user-data-dir=" + work.resolve("profile"), "--no-first-run", "--no-default-browser-check",
        "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND", "--hide-scrollbars", "--force-device-scale-factor=1",
        "--virtual-time-budget=10000"));
    cmd.addAll(List.of(args));
    Path out = Files.createTempFile(work, "chromium", ".out");
    Path err = Files.createTempFile(work, "chromium", ".err");
    Process p = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail("chromium did not finish in " + TIMEOUT_SECONDS + " s: " + cmd);
    }
    assertThat(p.exitValue()).as("chromium exit code; stderr: " + Files.readString(err)).isZero();
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  /** The page with the probe injected, opened in Chromium: the probe's findings. */
  static JsonNode probe(Path binary, Path work, String html) throws Exception {
    String probe;
    try (InputStream in = ReportInBrowserTest.class.getResourceAsStream("/report-probe.html")) {
      probe = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    int head = html.indexOf("<head>");
    assertThat(head).as("the page has a <head>").isNotNegative();
    Path page = work.resolve("probed.html");
    Files.writeString(page, html.substring(0, head + 6) + "\n" + probe + html.substring(head + 6), StandardCharsets.UTF_8);
    String dom = chromium(binary, work, "--dump-dom", page.toUri().toString());
    Matcher m = PROBE.matcher(dom);
    String found = null;
    while (m.find()) {
      found = m.group(1); // the probe appends its element at the end of the body
    }
    assertThat(found).as("the probe wrote its findings into the DOM; got: " + dom.substring(0, Math.min(dom.length(), 500)))
        .isNotNull();
    String json = found.replace("&lt;", "<").replace("&gt;", ">").replace("&nbsp;", "\u00a0").replace("&amp;", "&");
    return JsonMapper.builder().build().readTree(json);
  }

  @Test
  void theBuiltInScenarioReportDrawsEveryChartWithoutErrors(@TempDir Path dir) throws Exception {
    Path binary = requireChromium();
    SimulateCommandTest.Run r = SimulateCommandTest.run(SimulateCommand.NAME, "--out", dir.toString());
    assertThat(r.code()).as(r.err()).isZero();
    String html = Files.readString(dir.resolve("report.html"));
    assertThat(REMOTE.matcher(html).find()).as("a reference to something outside the page").isFalse();

    JsonNode n = probe(binary, dir, html);
    List<String> errors = new ArrayList<>();
    n.get("errors").forEach(e -> errors.add(e.asText()));
    assertThat(errors).as("errors and console errors or warnings in the page").isEmpty();
    assertThat(n.get("resources")).as("resources the page loaded").isEmpty();
    assertThat(n.get("expectedCharts").asInt()).isGreaterThanOrEqualTo(4);
    assertThat(n.get("charts")).hasSize(n.get("expectedCharts").asInt());
    for (JsonNode c : n.get("charts")) {
      String title = c.get("title").asText();
      assertThat(c.get("canvases").asInt()).as(title).isPositive();
      assertThat(c.get("painted").asInt()).as("painted pixels of " + title).isPositive();
      assertThat(c.get("seriesPixels").asInt()).as("pixels in its series' colours of " + title).isPositive();
    }
    String verdict = n.get("verdict").asText();
    assertThat(verdict).as("the verdict on the page").isNotBlank();
    assertThat(r.out()).as("the page shows the verdict the terminal prints").contains(verdict);

    String shot = System.getProperty("headroom.report.screenshot");
    if (shot != null && !shot.isBlank()) {
      Path png = Path.of(shot).toAbsolutePath();
      chromium(binary, dir, "--screenshot=" + png, "--window-size=1200,1500", dir.resolve("report.html").toUri().toString());
      assertThat(png).isNotEmptyFile();
    }
  }

  @Test
  void theProbeSeesErrorsRemoteLoadsAndBlankCanvases(@TempDir Path dir) throws Exception {
    Path binary = requireChromium();
    String broken = """
        <!DOCTYPE html>
        <html><head><title>broken</title></head><body>
        <p class="verdict"></p>
        <div id="decision"></div>
        <div id="charts"><div class="chart"><h2>blank</h2><canvas width="40" height="30"></canvas></div></div>
        <img src="http://example.invalid/pixel.png">
        <script>
        const DATA = {charts: [{single: false}], colors: ['#d62728']};
        console.error('boom');
        null.x;
        </script>
        </body></html>
        """;
    assertThat(REMOTE.matcher(broken).find()).isTrue();
    JsonNode n = probe(binary, dir, broken);
    String errors = n.get("errors").toString();
    assertThat(errors).contains("console.error: boom", "TypeError", "blocked load of http://example.invalid/pixel.png");
    assertThat(n.get("expectedCharts").asInt()).isEqualTo(3);
    assertThat(n.get("charts")).hasSize(1);
    assertThat(n.get("charts").get(0).get("painted").asInt()).isZero();
    assertThat(n.get("verdict").asText()).isEmpty();
  }
}
