package dev.headroom.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.client.internal.CertUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code /metrics} over HTTPS, each request authenticated and authorized by an {@link Authorizer} (through the API
 * server in production): no bearer token or an invalid one is 401, a user without {@code get} on the non-resource
 * URL is 403, a failed review is 500. The certificate is read from PEM files, or generated (self-signed) at start.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);
  private static final char[] STORE_PASSWORD = "headroom".toCharArray();

  /**
   * How {@code /metrics} is served.
   *
   * @param secure HTTPS with authentication and authorization on {@code port}; false: plain HTTP on the probe port
   * @param port the HTTPS port (0 picks a free one)
   * @param certFile PEM certificate (chain); null with {@code keyFile} null: a self-signed one is generated
   * @param keyFile PEM private key (PKCS#8, or PKCS#1 RSA / SEC1 EC)
   */
  public record Options(boolean secure, int port, Path certFile, Path keyFile) {
    /** Plain HTTP on the probe port. */
    public static final Options PLAIN = new Options(false, 0, null, null);
  }

  /** Decides whether a bearer token may {@code verb} {@code path}. */
  @FunctionalInterface
  public interface Authorizer {
    Decision check(String token, String verb, String path);
  }

  /** The answer of an {@link Authorizer}. */
  public sealed interface Decision {
    record Allowed(String user) implements Decision {}

    record Unauthenticated(String reason) implements Decision {}

    record Forbidden(String user, String reason) implements Decision {}

    record Error(String reason) implements Decision {}
  }

  private final HttpsServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpsServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /** Binds and starts serving; bad certificate or key files are an {@link IOException} naming the file. */
  public static MetricsServer start(Options options, Authorizer authorizer, Supplier<String> metrics) throws IOException, GeneralSecurityException {
    SSLContext tls = SSLContext.getInstance("TLS");
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keyStore(options), STORE_PASSWORD);
    tls.init(kmf.getKeyManagers(), null, new SecureRandom());
    HttpsServer server = HttpsServer.create(new InetSocketAddress(options.port()), 16);
    server.setHttpsConfigurator(new HttpsConfigurator(tls));
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "headroom-metrics");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(HttpEndpoints.METRICS, ex -> {
      if (!ex.getRequestURI().getPath().equals(HttpEndpoints.METRICS)) {
        respond(ex, 404, "not found\n");
        return;
      }
      serve(ex, authorizer, metrics);
    });
    server.createContext("/", ex -> respond(ex, 404, "not found\n"));
    server.start();
    return new MetricsServer(server, executor);
  }

  private static void serve(HttpExchange ex, Authorizer authorizer, Supplier<String> metrics) throws IOException {
    String header = ex.getRequestHeaders().getFirst("Authorization");
    if (header == null || !header.regionMatches(true, 0, "Bearer ", 0, 7) || header.substring(7).isBlank()) {
      ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
      respond(ex, 401, "Unauthorized: a bearer token is required\n");
      return;
    }
    String verb = ex.getRequestMethod().toLowerCase(Locale.ROOT);
    if ("head".equals(verb)) {
      verb = "get";
    }
    Decision d = authorizer.check(header.substring(7).trim(), verb, ex.getRequestURI().getPath());
    if (d instanceof Decision.Allowed) {
      HttpEndpoints.respond(ex, 200, HttpEndpoints.PROMETHEUS_CONTENT_TYPE, metrics.get());
    } else if (d instanceof Decision.Unauthenticated u) {
      ex.getResponseHeaders().set("WWW-Authenticate", "Bearer");
      respond(ex, 401, "Unauthorized: " + u.reason() + "\n");
    } else if (d instanceof Decision.Forbidden f) {
      respond(ex, 403, "Forbidden: " + f.reason() + "\n");
    } else {
      String reason = ((Decision.Error) d).reason();
      LOG.warn("a metrics scrape could not be authorized: {}", reason);
      respond(ex, 500, "Internal Server Error: " + reason + "\n");
    }
  }

  private static void respond(HttpExchange ex, int code, String body) throws IOException {
    HttpEndpoints.respond(ex, code, "text/plain; charset=utf-8", body);
  }

  /** The key store of the serving certificate: from the files, or self-signed (logged) when none are given. */
  static KeyStore keyStore(Options options) throws IOException, GeneralSecurityException {
    if ((options.certFile() == null) != (options.keyFile() == null)) {
      throw new IOException("give both the metrics certificate and key files, or neither (a self-signed certificate is generated)");
    }
    if (options.certFile() == null) {
      SelfSignedCertificate.Material m = SelfSignedCertificate.generate("headroom-metrics", List.of("localhost", "headroom-controller-metrics"),
          Instant.now().minus(Duration.ofMinutes(5)), Duration.ofDays(365), new SecureRandom());
      KeyStore ks = KeyStore.getInstance("PKCS12");
      ks.load(null, null);
      ks.setKeyEntry("metrics", m.keys().getPrivate(), STORE_PASSWORD, new Certificate[] {m.certificate()});
      LOG.info("serving /metrics with a self-signed certificate (no certificate file given)");
      return ks;
    }
    byte[] cert = read(options.certFile());
    byte[] key = read(options.keyFile());
    String keyText = new String(key, StandardCharsets.US_ASCII);
    if (!keyText.contains("PRIVATE KEY-----")) {
      throw new IOException(options.keyFile() + ": not a PEM private key");
    }
    if (!new String(cert, StandardCharsets.US_ASCII).contains("-----BEGIN CERTIFICATE-----")) {
      throw new IOException(options.certFile() + ": not a PEM certificate");
    }
    List<String> algorithms = keyText.contains("BEGIN EC PRIVATE KEY") ? List.of("EC") : keyText.contains("BEGIN RSA PRIVATE KEY") ? List.of("RSA") : List.of("RSA", "EC");
    Exception last = null;
    for (String algorithm : algorithms) {
      try (InputStream c = new ByteArrayInputStream(cert); InputStream k = new ByteArrayInputStream(key)) {
        return CertUtils.createKeyStore(c, k, algorithm, STORE_PASSWORD, null, STORE_PASSWORD);
      } catch (GeneralSecurityException | IOException | RuntimeException e) {
        last = e;
      }
    }
    throw new IOException(options.keyFile() + " / " + options.certFile() + ": cannot read the key and certificate: " + last.getMessage());
  }

  private static byte[] read(Path p) throws IOException {
    try {
      return Files.readAllBytes(p);
    } catch (IOException e) {
      throw new IOException(p + ": cannot read: " + e.getMessage(), e);
    }
  }

  /** The bound port. */
  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }
}
