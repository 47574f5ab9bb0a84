package dev.headroom.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What the build embedded in {@code dev/headroom/cli/version.properties}: the version, the abbreviated git commit
 * and the declared build date. A value the build could not
 * fill in (no {@code .git}, as in the Docker build context) reads as {@value #UNKNOWN}.
 */
public record BuildInfo(String version, String commit, String buildDate, String java) {

  /** Shown for a value the build did not know. */
  public static final String UNKNOWN = "unknown";
  static final String RESOURCE = "/dev/headroom/cli/version.properties";

  /** The embedded build info of this jar and the running JVM's version. */
  public static BuildInfo current() {
    Properties p = new Properties();
    try (InputStream in = BuildInfo.class.getResourceAsStream(RESOURCE)) {
      if (in != null) {
        p.load(in);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return of(p, System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
  }

  /** Build info from the properties {@code version}, {@code commit} and {@code buildDate}. */
  static BuildInfo of(Properties p, String java) {
    return new BuildInfo(value(p, "version"), value(p, "commit"), value(p, "buildDate"), java);
  }

  private static String value(Properties p, String key) {
    String v = p.getProperty(key);
    return v == null || v.isBlank() || v.contains("${") ? UNKNOWN : v.trim();
  }

  /** The lines of {@code headroom version} and {@code headroom --version}. */
  public String[] lines() {
    return new String[] {
        "headroom " + version,
        "commit:     " + commit,
        "build date: " + buildDate,
        "java:       " + java};
  }
}
