package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ServiceAccountBuilder;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBindingBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code /metrics} over HTTPS as deploy/ runs it ({@code --metrics-secure=true}, deploy/'s ServiceAccount with
 * deploy/metrics-rbac.yaml), against the real API server's authentication and RBAC: no token is 401, a
 * ServiceAccount token without the permission is 403, one bound to the metrics-reader ClusterRole gets the metrics.
 */
class SecureMetricsE2eTest {
  static final String SERVICE_ACCOUNT = "system:serviceaccount:headroom-system:headroom-controller";
  static final String READER_ROLE = "headroom-controller-metrics-reader";
  private TestBed bed;
  private HeadroomProcess headroom;
  private String namespace;
  private String binding;

  @AfterEach
  void tearDown() {
    if (headroom != null) {
      headroom.close();
    }
    if (binding != null) {
      bed.admin().rbac().clusterRoleBindings().withName(binding).delete();
    }
    if (namespace != null) {
      bed.deleteNamespace(namespace);
    }
  }

  static HttpClient trustingClient() throws Exception {
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(null, new TrustManager[] {new X509TrustManager() {
      @Override
      public void checkClientTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public void checkServerTrusted(X509Certificate[] chain, String authType) {}

      @Override
      public X509Certificate[] getAcceptedIssuers() {
        return new X509Certificate[0];
      }
    }}, new SecureRandom());
    return HttpClient.newBuilder().sslContext(tls).connectTimeout(Duration.ofSeconds(5)).build();
  }

  private String token(KubernetesClient admin, String serviceAccount) {
    admin.resource(new ServiceAccountBuilder().withNewMetadata().withNamespace(namespace).withName(serviceAccount).endMetadata().build()).create();
    return admin.serviceAccounts().inNamespace(namespace).withName(serviceAccount)
        .tokenRequest(new TokenRequestBuilder().withNewSpec().withExpirationSeconds(600L).endSpec().build()).getStatus().getToken();
  }

  @Test
  void anUnauthenticatedScrapeIsRefusedAStrangerForbiddenAndAReaderServed() throws Exception {
    bed = TestBed.get();
    KubernetesClient admin = bed.admin();
    bed.applyCrd();
    for (String f : List.of("deploy/namespace.yaml", "deploy/serviceaccount.yaml", "deploy/rbac.yaml", "deploy/metrics-rbac.yaml")) {
      try (InputStream in = Files.newInputStream(bed.root().resolve(f))) {
        for (HasMetadata o : admin.load(in).items()) {
          admin.resource(o).fieldManager("headroom-e2e").forceConflicts().serverSideApply();
        }
      }
    }
    namespace = bed.namespace("metrics");
    String readerToken = token(admin, "scraper");
    String strangerToken = token(admin, "stranger");
    binding = namespace + "-scraper";
    admin.resource(new ClusterRoleBindingBuilder().withNewMetadata().withName(binding).endMetadata()
        .withNewRoleRef().withApiGroup("rbac.authorization.k8s.io").withKind("ClusterRole").withName(READER_ROLE).endRoleRef()
        .addNewSubject().withKind("ServiceAccount").withName("scraper").withNamespace(namespace).endSubject().build()).create();

    int port = HeadroomProcess.freePort();
    Instant from = Instant.now();
    Path kubeconfig = bed.user(SERVICE_ACCOUNT, "system:serviceaccounts", "system:serviceaccounts:headroom-system");
    headroom = HeadroomProcess.startAs(bed, SERVICE_ACCOUNT, kubeconfig, List.of("--metrics-secure=true", "--metrics-port=" + port));
    HttpClient https = trustingClient();
    URI metrics = URI.create("https://localhost:" + port + "/metrics");

    HttpResponse<String> anonymous = https.send(HttpRequest.newBuilder(metrics).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(anonymous.statusCode()).as(anonymous.body()).isEqualTo(401);
    HttpResponse<String> forged = https.send(HttpRequest.newBuilder(metrics).header("Authorization", "Bearer not-a-token").build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(forged.statusCode()).as(forged.body()).isEqualTo(401);
    HttpResponse<String> stranger = https.send(HttpRequest.newBuilder(metrics).header("Authorization", "Bearer " + strangerToken).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(stranger.statusCode()).as(stranger.body()).isEqualTo(403);
    assertThat(stranger.body()).contains("system:serviceaccount:" + namespace + ":stranger");
    // RBAC caches are eventually consistent: the new binding may take a moment to count
    await("the reader's scrape").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofSeconds(2)).untilAsserted(() -> {
      HttpResponse<String> reader = https.send(HttpRequest.newBuilder(metrics).header("Authorization", "Bearer " + readerToken).build(),
          HttpResponse.BodyHandlers.ofString());
      assertThat(reader.statusCode()).as(reader.body()).isEqualTo(200);
      assertThat(reader.body()).contains("headroom_leader 1.0").contains("headroom_workqueue_depth");
    });
    // the plain port serves the probes only
    assertThat(headroom.get("/metrics").code()).isEqualTo(404);
    assertThat(headroom.healthz().code()).isEqualTo(200);

    AuditLog audit = bed.audit();
    List<AuditLog.Event> reviews = audit.events(e -> e.user().equals(SERVICE_ACCOUNT) && e.received().isAfter(from)
        && (e.resource().equals("tokenreviews") || e.resource().equals("subjectaccessreviews")));
    assertThat(reviews).as("reviews made by the controller").isNotEmpty().allSatisfy(e -> assertThat(e.code()).isEqualTo(201));
    Measurements.record("secure metrics: reviews by the controller for 4 scrapes (decisions kept for 1 minute)", reviews.size());
  }
}
