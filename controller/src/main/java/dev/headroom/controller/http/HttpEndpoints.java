package dev.headroom.controller.http;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The controller's HTTP surface on the JDK's built-in server: {@code /healthz} (liveness), {@code /readyz}
 * (readiness) and {@code /metrics} (Prometheus text format). A probe answers 200 {@code ok}, or 503 with the reason
 * on one line.
 */
public final class HttpEndpoints implements AutoCloseable {
  /** Liveness path. */
  public static final String HEALTHZ = "/healthz";
  /** Readiness path. */
  public static final String READYZ = "/readyz";
  /** Prometheus scrape path. */
  public static final String METRICS = "/metrics";
  /** Content type of the Prometheus text exposition format. */
  public static final String PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private HttpEndpoints(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Binds {@code port} (0 picks a free one) and starts serving.
   *
   * @param live empty while the process is alive and making progress, else why not
   * @param ready empty while the controller is ready, else why not
   * @param metrics renders the current metrics in Prometheus text format; null: no {@code /metrics} here (it is served
   *     over HTTPS by {@link MetricsServer})
   */
  public static HttpEndpoints start(int port, Supplier<Optional<String>> live, Supplier<Optional<String>> ready, Supplier<String> metrics) throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(port), 16);
    ExecutorService executor = Executors.newFixedThreadPool(2, r -> {
      Thread t = new Thread(r, "headroom-http");
      t.setDaemon(true);
      return t;
    });
    server.setExecutor(executor);
    server.createContext(HEALTHZ, ex -> probe(ex, live.get()));
    server.createContext(READYZ, ex -> probe(ex, ready.get()));
    if (metrics != null) {
      server.createContext(METRICS, ex -> {
      if (!ex.getRequestURI().getPath().equals(METRICS)) {
        respond(ex, 404, "text/plain; charset=utf-8", "not found\n");
        return;
      }
      respond(ex, 200, PROMETHEUS_CONTENT_TYPE, metrics.get());
      });
    }
    server.createContext("/", ex -> respond(ex, 404, "text/plain; charset=utf-8", "not found\n"));
    server.start();
    return new HttpEndpoints(server, executor);
  }

  private static void probe(HttpExchange ex, Optional<String> problem) throws IOException {
    respond(ex, problem.isEmpty() ? 200 : 503, "text/plain; charset=utf-8", problem.map(p -> p.replace('\n', ' ') + "\n").orElse("ok\n"));
  }

  /** Writes {@code body} with {@code code} and closes the exchange (headers only for HEAD); one place for both servers. */
  static void respond(HttpExchange ex, int code, String contentType, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", contentType);
    boolean head = "HEAD".equalsIgnoreCase(ex.getRequestMethod());
    ex.sendResponseHeaders(code, head ? -1 : bytes.length);
    if (!head) {
      try (OutputStream out = ex.getResponseBody()) {
        out.write(bytes);
      }
    }
    ex.close();
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
