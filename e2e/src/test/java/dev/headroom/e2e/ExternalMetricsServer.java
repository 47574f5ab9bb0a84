package dev.headroom.e2e;

import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsParameters;
import com.sun.net.httpserver.HttpsServer;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.function.Consumer;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.TrustManagerFactory;

/**
 * An {@code external.metrics.k8s.io/v1beta1} API served from the test JVM, the way an adapter (KEDA's, Prometheus
 * adapter) serves it: HTTPS on 127.0.0.1 with a self-signed certificate made by the JDK's {@code keytool}, client
 * certificates required and checked against the bed's front-proxy CA (only kube-apiserver's aggregation proxy can
 * call it), registered as the APIService {@code v1beta1.external.metrics.k8s.io} behind an {@code ExternalName}
 * Service that names 127.0.0.1 (the aggregator resolves it without endpoints or kube-proxy).
 *
 * <p>Every metric has one current value, set by the test ({@link #set}); each GET returns it as one series and is
 * recorded ({@link #requests}) with the time it arrived, so a test sees each sync of the HPA controller and the value
 * it read. A callback ({@link #onRequest}) runs before the answer is written, so the test can snapshot the cluster
 * at the moment the controller reads the metric.
 */
final class ExternalMetricsServer implements AutoCloseable {
  static final String GROUP = "external.metrics.k8s.io";
  static final String VERSION = "v1beta1";
  static final String APISERVICE = VERSION + "." + GROUP;
  static final String NAMESPACE = "headroom-metrics";
  static final String SERVICE = "external-metrics";

  /** One GET of a metric: when it arrived, the namespace and metric asked for, the value served (milli-units). */
  record Request(Instant at, String namespace, String metric, long milli, String user) {}

  private final HttpsServer server;
  private final Map<String, Long> values = new ConcurrentHashMap<>();
  private final List<Request> requests = new ArrayList<>();
  private final KubernetesClient admin;
  private volatile Consumer<Request> onRequest = r -> {};

  private ExternalMetricsServer(HttpsServer server, KubernetesClient admin) {
    this.server = server;
    this.admin = admin;
  }

  /**
   * Starts the server, registers it with the bed's API server and waits until the APIService is Available.
   *
   * @param bed the bed (its state directory holds the front-proxy CA)
   * @param work a directory for the key store
   */
  static ExternalMetricsServer start(TestBed bed, Path work) throws Exception {
    Files.createDirectories(work);
    Path store = work.resolve("external-metrics.p12");
    Files.deleteIfExists(store);
    String pass = "headroom-e2e";
    String dns = SERVICE + "." + NAMESPACE + ".svc";
    Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
    Scripts.run(bed.root(), Map.of(), Duration.ofMinutes(1), keytool.toString(), "-genkeypair", "-alias", "serving",
        "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=" + dns,
        "-ext", "san=dns:" + dns + ",ip:127.0.0.1", "-storetype", "PKCS12", "-keystore", store.toString(),
        "-storepass", pass, "-keypass", pass);
    KeyStore keys = KeyStore.getInstance("PKCS12");
    try (InputStream in = Files.newInputStream(store)) {
      keys.load(in, pass.toCharArray());
    }
    X509Certificate serving = (X509Certificate) keys.getCertificate("serving");
    KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
    kmf.init(keys, pass.toCharArray());

    Path frontProxyCa = bed.kubeconfig().getParent().resolve("pki/front-proxy-ca.crt");
    KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
    trust.load(null, null);
    try (InputStream in = Files.newInputStream(frontProxyCa)) {
      trust.setCertificateEntry("front-proxy-ca", CertificateFactory.getInstance("X.509").generateCertificate(in));
    }
    TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
    tmf.init(trust);
    SSLContext tls = SSLContext.getInstance("TLS");
    tls.init(kmf.getKeyManagers(), tmf.getTrustManagers(), null);

    HttpsServer https = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    https.setHttpsConfigurator(new HttpsConfigurator(tls) {
      @Override
      public void configure(HttpsParameters params) {
        SSLParameters p = tls.getDefaultSSLParameters();
        p.setNeedClientAuth(true);
        params.setSSLParameters(p);
      }
    });
    https.setExecutor(Executors.newFixedThreadPool(4, r -> {
      Thread t = new Thread(r, "external-metrics");
      t.setDaemon(true);
      return t;
    }));
    ExternalMetricsServer s = new ExternalMetricsServer(https, bed.admin());
    https.createContext("/", s::handle);
    https.start();
    s.register(Base64.getEncoder().encodeToString(pem(serving).getBytes(StandardCharsets.US_ASCII)));
    return s;
  }

  /** The port it listens on (127.0.0.1). */
  int port() {
    return server.getAddress().getPort();
  }

  /** Sets a metric's value (milli-units); a metric never set is answered with 404. */
  void set(String metric, long milli) {
    values.put(metric, milli);
  }

  /** Runs before each metric answer is written. */
  void onRequest(Consumer<Request> callback) {
    onRequest = callback;
  }

  /** Every metric GET so far, in arrival order. */
  List<Request> requests() {
    synchronized (requests) {
      return List.copyOf(requests);
    }
  }

  /** The GETs of one metric so far. */
  List<Request> requests(String metric) {
    return requests().stream().filter(r -> r.metric().equals(metric)).toList();
  }

  private void register(String caBundle) {
    if (admin.namespaces().withName(NAMESPACE).get() == null) {
      admin.namespaces().resource(new io.fabric8.kubernetes.api.model.NamespaceBuilder().withNewMetadata()
          .withName(NAMESPACE).endMetadata().build()).createOr(r -> r.update());
    }
    admin.services().inNamespace(NAMESPACE).resource(new ServiceBuilder().withNewMetadata().withName(SERVICE)
        .endMetadata().withNewSpec().withType("ExternalName").withExternalName("127.0.0.1").endSpec().build())
        .fieldManager("headroom-e2e").forceConflicts().serverSideApply();
    GenericKubernetesResource api = new GenericKubernetesResource();
    api.setApiVersion("apiregistration.k8s.io/v1");
    api.setKind("APIService");
    api.setMetadata(new io.fabric8.kubernetes.api.model.ObjectMetaBuilder().withName(APISERVICE).build());
    api.setAdditionalProperty("spec", Map.of("group", GROUP, "version", VERSION, "groupPriorityMinimum", 100,
        "versionPriority", 100, "caBundle", caBundle,
        "service", Map.of("namespace", NAMESPACE, "name", SERVICE, "port", port())));
    admin.genericKubernetesResources(APISERVICES).resource(api).fieldManager("headroom-e2e").forceConflicts()
        .serverSideApply();
    await("APIService " + APISERVICE + " Available").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .until(this::available);
  }

  static final ResourceDefinitionContext APISERVICES = new ResourceDefinitionContext.Builder()
      .withGroup("apiregistration.k8s.io").withVersion("v1").withPlural("apiservices").withKind("APIService")
      .withNamespaced(false).build();

  @SuppressWarnings("unchecked")
  private boolean available() {
    GenericKubernetesResource r = admin.genericKubernetesResources(APISERVICES).withName(APISERVICE).get();
    if (r == null || !(r.getAdditionalProperties().get("status") instanceof Map<?, ?> status)) {
      return false;
    }
    Object conditions = status.get("conditions");
    if (!(conditions instanceof List<?> list)) {
      return false;
    }
    for (Object c : list) {
      Map<String, Object> m = (Map<String, Object>) c;
      if ("Available".equals(m.get("type")) && "True".equals(m.get("status"))) {
        return true;
      }
    }
    return false;
  }

  private void handle(HttpExchange ex) throws IOException {
    try (ex) {
      String path = ex.getRequestURI().getPath();
      String base = "/apis/" + GROUP + "/" + VERSION;
      if (path.equals("/apis")) {
        reply(ex, 200, """
            {"kind":"APIGroupList","apiVersion":"v1","groups":[%s]}""".formatted(group()));
      } else if (path.equals("/apis/" + GROUP)) {
        reply(ex, 200, group().replaceFirst("\\{", "{\"kind\":\"APIGroup\",\"apiVersion\":\"v1\","));
      } else if (path.equals(base)) {
        reply(ex, 200, """
            {"kind":"APIResourceList","apiVersion":"v1","groupVersion":"%s/%s","resources":[{"name":"externalmetrics",\
            "singularName":"","namespaced":true,"kind":"ExternalMetricValueList","verbs":["get"]}]}"""
            .formatted(GROUP, VERSION));
      } else if (path.startsWith(base + "/namespaces/") && path.split("/").length == 7) {
        String[] parts = path.split("/");
        String namespace = parts[5];
        String metric = parts[6];
        Long v = values.get(metric);
        if (v == null) {
          reply(ex, 404, status(404, "NotFound", "no metric " + metric));
          return;
        }
        Request r = new Request(Instant.now(), namespace, metric, v, String.valueOf(ex.getRequestHeaders().getFirst("X-Remote-User")));
        onRequest.accept(r);
        synchronized (requests) {
          requests.add(r);
        }
        reply(ex, 200, """
            {"kind":"ExternalMetricValueList","apiVersion":"%s/%s","metadata":{},"items":[{"metricName":"%s",\
            "metricLabels":{},"timestamp":"%s","value":"%dm"}]}""".formatted(GROUP, VERSION, metric, r.at(), v));
      } else {
        reply(ex, 404, status(404, "NotFound", "the server could not find the requested resource"));
      }
    }
  }

  private static String group() {
    return """
        {"name":"%s","versions":[{"groupVersion":"%s/%s","version":"%s"}],\
        "preferredVersion":{"groupVersion":"%s/%s","version":"%s"}}""".formatted(GROUP, GROUP, VERSION, VERSION, GROUP,
        VERSION, VERSION);
  }

  private static String status(int code, String reason, String message) {
    return """
        {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"%s","reason":"%s","code":%d}"""
        .formatted(message, reason, code);
  }

  private static void reply(HttpExchange ex, int code, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    ex.getResponseHeaders().set("Content-Type", "application/json");
    ex.sendResponseHeaders(code, bytes.length);
    try (OutputStream out = ex.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static String pem(X509Certificate cert) throws Exception {
    return "-----BEGIN CERTIFICATE-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(cert.getEncoded())
        + "\n-----END CERTIFICATE-----\n";
  }

  /** Deregisters the APIService and stops the server. */
  @Override
  public void close() {
    admin.genericKubernetesResources(APISERVICES).withName(APISERVICE).delete();
    admin.services().inNamespace(NAMESPACE).withName(SERVICE).delete();
    server.stop(0);
  }
}
