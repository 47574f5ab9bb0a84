package dev.headroom.controller.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.controller.testing.ApiServer;
import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewStatusBuilder;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewStatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /metrics} over HTTPS against the mock API server, which answers TokenReviews (token {@code reader-token}
 * and {@code other-token} are valid) and SubjectAccessReviews (only the reader may get /metrics) as kube-apiserver
 * would.
 */
class MetricsServerTest {
  static final String READER = "system:serviceaccount:monitoring:reader";
  static final String OTHER = "system:serviceaccount:monitoring:other";

  private final ApiServer api = new ApiServer();
  private final AtomicLong nanos = new AtomicLong();
  private MetricsServer server;
  @TempDir Path dir;

  @BeforeEach
  void answerReviews() {
    api.dispatcher().answer(c -> "tokenreviews".equals(c.resource()), body -> {
      TokenReview tr = Serialization.unmarshal(body, TokenReview.class);
      String token = tr.getSpec().getToken();
      String user = token.equals("reader-token") ? READER : token.equals("other-token") ? OTHER : null;
      tr.setStatus(user == null ? new TokenReviewStatusBuilder().withAuthenticated(false).withError("invalid bearer token").build()
          : new TokenReviewStatusBuilder().withAuthenticated(true).withNewUser().withUsername(user)
              .withGroups("system:serviceaccounts", "system:authenticated").endUser().build());
      return Serialization.asJson(tr);
    });
    api.dispatcher().answer(c -> "subjectaccessreviews".equals(c.resource()), body -> {
      SubjectAccessReview sar = Serialization.unmarshal(body, SubjectAccessReview.class);
      boolean allowed = READER.equals(sar.getSpec().getUser()) && sar.getSpec().getGroups().contains("system:authenticated")
          && "/metrics".equals(sar.getSpec().getNonResourceAttributes().getPath()) && "get".equals(sar.getSpec().getNonResourceAttributes().getVerb());
      sar.setStatus(new SubjectAccessReviewStatusBuilder().withAllowed(allowed).withReason(allowed ? "allowed by a ClusterRoleBinding" : "").build());
      return Serialization.asJson(sar);
    });
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.close();
    }
    api.close();
  }

  private MetricsServer start(MetricsServer.Options options) throws Exception {
    server = MetricsServer.start(options, new ApiServerAuthorizer(api.client("headroom"), Duration.ofMinutes(1), nanos::get), () -> "headroom_leader 1.0\n");
    return server;
  }

  static HttpClient insecureClient() throws Exception {
    SSLContext ctx = SSLContext.getInstance("TLS");
    ctx.init(null, new TrustManager[] {new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    }}, new SecureRandom());
    return HttpClient.newBuilder().sslContext(ctx).build();
  }

  private HttpResponse<String> scrape(String token) throws Exception {
    HttpRequest.Builder r = HttpRequest.newBuilder(URI.create("https://localhost:" + server.port() + "/metrics"));
    if (token != null) {
      r.header("Authorization", "Bearer " + token);
    }
    return insecureClient().send(r.build(), HttpResponse.BodyHandlers.ofString());
  }

  private long reviews() {
    return api.callsBy("headroom").stream().filter(c -> c.resource().endsWith("reviews")).count();
  }

  @Test
  void anUnauthenticatedScrapeIs401AForbiddenUser403AndAnAllowedOneGetsTheMetrics() throws Exception {
    start(new MetricsServer.Options(true, 0, null, null));
    assertThat(scrape(null).statusCode()).isEqualTo(401);
    assertThat(scrape(null).headers().firstValue("WWW-Authenticate")).contains("Bearer");
    assertThat(reviews()).as("no token, no review").isZero();
    HttpResponse<String> bad = scrape("forged");
    assertThat(bad.statusCode()).isEqualTo(401);
    assertThat(bad.body()).contains("invalid bearer token");
    HttpResponse<String> other = scrape("other-token");
    assertThat(other.statusCode()).isEqualTo(403);
    assertThat(other.body()).contains("user \"" + OTHER + "\" may not get /metrics");
    HttpResponse<String> reader = scrape("reader-token");
    assertThat(reader.statusCode()).isEqualTo(200);
    assertThat(reader.body()).isEqualTo("headroom_leader 1.0\n");
    assertThat(reader.headers().firstValue("Content-Type")).contains(HttpEndpoints.PROMETHEUS_CONTENT_TYPE);

    // decisions are reused for the TTL, then asked again
    long asked = reviews();
    assertThat(scrape("reader-token").statusCode()).isEqualTo(200);
    assertThat(scrape("other-token").statusCode()).isEqualTo(403);
    assertThat(reviews()).isEqualTo(asked);
    nanos.addAndGet(Duration.ofMinutes(2).toNanos());
    assertThat(scrape("reader-token").statusCode()).isEqualTo(200);
    assertThat(reviews()).isEqualTo(asked + 2);
  }

  @Test
  void aReviewTheApiServerRefusesIs500() throws Exception {
    start(new MetricsServer.Options(true, 0, null, null));
    api.dispatcher().failNext(c -> "tokenreviews".equals(c.resource()), 403, 1);
    assertThat(scrape("reader-token").statusCode()).isEqualTo(500);
    assertThat(scrape("reader-token").statusCode()).as("an error is not remembered").isEqualTo(200);
  }

  @Test
  void servesTheGivenCertificateElseASelfSignedOne() throws Exception {
    start(new MetricsServer.Options(true, 0, null, null));
    X509Certificate generated = (X509Certificate) scrape("reader-token").sslSession().orElseThrow().getPeerCertificates()[0];
    assertThat(generated.getSubjectX500Principal().getName()).isEqualTo("CN=headroom-metrics");
    assertThat(generated.getSubjectAlternativeNames()).extracting(l -> (Object) l.get(1)).contains("localhost");
    server.close();

    SelfSignedCertificate.Material m = SelfSignedCertificate.generate("metrics.example", List.of("metrics.example", "localhost"),
        Instant.parse("2026-01-01T00:00:00Z"), Duration.ofDays(3650), new SecureRandom(new byte[] {7}));
    Path cert = Files.writeString(dir.resolve("tls.crt"), pem("CERTIFICATE", m.certificate().getEncoded()));
    Path key = Files.writeString(dir.resolve("tls.key"), pem("PRIVATE KEY", m.keys().getPrivate().getEncoded()));
    start(new MetricsServer.Options(true, 0, cert, key));
    X509Certificate served = (X509Certificate) scrape("reader-token").sslSession().orElseThrow().getPeerCertificates()[0];
    assertThat(served).isEqualTo(m.certificate());
    server.close();
    server = null;

    Path garbage = Files.writeString(dir.resolve("garbage.key"), "not a key\n");
    assertThatThrownBy(() -> start(new MetricsServer.Options(true, 0, cert, garbage))).isInstanceOf(IOException.class)
        .hasMessage(garbage + ": not a PEM private key");
    assertThatThrownBy(() -> start(new MetricsServer.Options(true, 0, dir.resolve("missing.crt"), key))).isInstanceOf(IOException.class)
        .hasMessageStartingWith(dir.resolve("missing.crt") + ": cannot read");
  }

  static String pem(String type, byte[] der) {
    return "-----BEGIN " + type + "-----\n" + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der)
        + "\n-----END " + type + "-----\n";
  }
}
