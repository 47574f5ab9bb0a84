package dev.headroom.controller.health;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ApiRequestTest {

  private static String permission(String method, String url) {
    return ApiRequest.of(method, URI.create("https://10.0.0.1:6443" + url)).map(ApiRequest::permission).orElse("none");
  }

  @Test
  void requestsAreNamedInRbacTerms() {
    assertThat(permission("GET", "/api/v1/pods?resourceVersion=0")).isEqualTo("list pods (cluster-wide)");
    assertThat(permission("GET", "/api/v1/pods?allowWatchBookmarks=true&watch=true&resourceVersion=5")).isEqualTo("watch pods (cluster-wide)");
    assertThat(permission("GET", "/apis/apps/v1/namespaces/shop/deployments/web")).isEqualTo("get deployments.apps in namespace shop");
    assertThat(permission("PUT", "/apis/autoscaling.x-k8s.io/v1beta1/namespaces/shop/capacitybuffers/b/status"))
        .isEqualTo("update capacitybuffers.autoscaling.x-k8s.io/status in namespace shop");
    assertThat(permission("POST", "/api/v1/namespaces/shop/pods?dryRun=All")).isEqualTo("create pods in namespace shop");
    assertThat(permission("PATCH", "/apis/coordination.k8s.io/v1/namespaces/headroom-system/leases/l")).isEqualTo("patch leases.coordination.k8s.io in namespace headroom-system");
    assertThat(permission("DELETE", "/api/v1/nodes/n1")).isEqualTo("delete nodes (cluster-wide)");
    assertThat(permission("GET", "/api/v1/namespaces/shop")).isEqualTo("get namespaces (cluster-wide)");
    assertThat(permission("GET", "/apis/autoscaling.x-k8s.io/v1beta1")).as("discovery is no resource").isEqualTo("none");
    assertThat(permission("GET", "/version")).isEqualTo("none");
  }

  @Test
  void theCrdWaitBacksOffExponentiallyUpToItsCap() {
    CrdWait.Backoff b = new CrdWait.Backoff(Duration.ofSeconds(1), Duration.ofSeconds(30));
    assertThat(b.after(1)).isEqualTo(Duration.ofSeconds(1));
    assertThat(b.after(2)).isEqualTo(Duration.ofSeconds(2));
    assertThat(b.after(5)).isEqualTo(Duration.ofSeconds(16));
    assertThat(b.after(6)).isEqualTo(Duration.ofSeconds(30));
    assertThat(b.after(60)).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void aServiceAccountTokenNamesTheUser() {
    String payload = java.util.Base64.getUrlEncoder().withoutPadding()
        .encodeToString("{\"iss\":\"kubernetes\",\"sub\":\"system:serviceaccount:headroom-system:headroom\"}".getBytes());
    io.fabric8.kubernetes.client.Config config = new io.fabric8.kubernetes.client.ConfigBuilder().withOauthToken("e30." + payload + ".c2ln").build();
    assertThat(ApiHealth.userOf(config)).isEqualTo("system:serviceaccount:headroom-system:headroom");
  }

  @Test
  void aClientCertificateNamesTheUserByItsCommonName() throws Exception {
    // A self-signed certificate for /O=headroom-testers/CN=headroom-cert-user (the API server's user is the CN).
    byte[] pem;
    try (java.io.InputStream in = ApiRequestTest.class.getResourceAsStream("/health/client-cert.pem")) {
      pem = in.readAllBytes();
    }
    io.fabric8.kubernetes.client.Config inline = new io.fabric8.kubernetes.client.ConfigBuilder()
        .withClientCertData(java.util.Base64.getEncoder().encodeToString(pem)).build();
    assertThat(ApiHealth.userOf(inline)).isEqualTo("headroom-cert-user");
    java.nio.file.Path file = java.nio.file.Files.createTempFile("client", ".pem");
    try {
      java.nio.file.Files.write(file, pem);
      io.fabric8.kubernetes.client.Config fromFile = new io.fabric8.kubernetes.client.ConfigBuilder().withClientCertFile(file.toString()).build();
      assertThat(ApiHealth.userOf(fromFile)).isEqualTo("headroom-cert-user");
    } finally {
      java.nio.file.Files.delete(file);
    }
    io.fabric8.kubernetes.client.Config garbage = new io.fabric8.kubernetes.client.ConfigBuilder().withClientCertData("bm90IGEgY2VydA==").build();
    assertThat(ApiHealth.userOf(garbage)).isNull();
  }
}
