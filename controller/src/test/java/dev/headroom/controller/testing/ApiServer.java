package dev.headroom.controller.testing;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * A fabric8 mock API server in CRUD mode behind a {@link RecordingDispatcher}, with the CapacityBuffer CRD
 * registered (status subresource on). Clients it hands out identify themselves through the User-Agent and do not
 * retry failed requests on their own, so the controller's own retries are what tests observe.
 */
public final class ApiServer implements AutoCloseable {
  private final RecordingDispatcher dispatcher = new RecordingDispatcher(new KubernetesCrudDispatcher(List.of()));
  private volatile KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
  private final List<KubernetesClient> clients = new ArrayList<>();
  private final KubernetesClient admin;

  private static final java.util.logging.Logger QUIET_MOCK_LOG = java.util.logging.Logger.getLogger("io.fabric8.mockwebserver");

  static {
    QUIET_MOCK_LOG.setLevel(java.util.logging.Level.WARNING);
    for (java.util.logging.Handler h : java.util.logging.Logger.getLogger("").getHandlers()) {
      h.setLevel(java.util.logging.Level.WARNING);
    }
  }

  public ApiServer() {
    this(true);
  }

  /** @param withCrd whether the CapacityBuffer CRD is installed from the start (else see {@link #installCrd()}) */
  public ApiServer(boolean withCrd) {
    server.init();
    admin = client("test-admin");
    if (withCrd) {
      installCrd();
    }
  }

  /** Installs the CapacityBuffer CRD (status subresource on). */
  public void installCrd() {
    admin.apiextensions().v1().customResourceDefinitions().resource(capacityBufferCrd()).create();
  }

  /** A client whose requests carry {@code User-Agent: <agent>}. */
  public KubernetesClient client(String agent) {
    return client(agent, b -> { });
  }

  /** As {@link #client(String)}, with {@code http} applied to its HTTP client builder (interceptors). */
  public KubernetesClient client(String agent, java.util.function.Consumer<io.fabric8.kubernetes.client.http.HttpClient.Builder> http) {
    KubernetesClient base = server.createClient();
    Config config = new ConfigBuilder(base.getConfiguration()).withUserAgent(agent).withRequestRetryBackoffLimit(0)
        .withWatchReconnectInterval(100).build();
    base.close();
    KubernetesClient c = new KubernetesClientBuilder().withConfig(config).withHttpClientBuilderConsumer(http).build();
    clients.add(c);
    return c;
  }

  /**
   * Stops the server (open watches drop, connections are refused) until {@link #start()} brings it back on the same
   * port with the same objects, as a restarted kube-apiserver with its etcd would.
   */
  public synchronized void stop() {
    server.destroy();
  }

  /** Serves again on the port of before, with the stored objects. */
  public synchronized void start() {
    java.net.URI url = java.net.URI.create(admin.getConfiguration().getMasterUrl());
    server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
    try {
      server.init(java.net.InetAddress.getByName(url.getHost()), url.getPort());
    } catch (java.net.UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The client tests use to arrange and inspect objects. */
  public KubernetesClient admin() {
    return admin;
  }

  public RecordingDispatcher dispatcher() {
    return dispatcher;
  }

  /** Requests sent by the client with {@code agent}. */
  public List<ApiCall> callsBy(String agent) {
    return dispatcher.calls().stream().filter(c -> agent.equals(c.userAgent())).toList();
  }

  /** Mutating (non dry-run) requests sent by {@code agent}. */
  public List<ApiCall> writesBy(String agent) {
    return callsBy(agent).stream().filter(ApiCall::mutating).toList();
  }

  /**
   * Distinct (group, resource, verb) triples sent by {@code agent}; API discovery ({@code /apis/GROUP/VERSION}, a
   * non-resource URL every authenticated user may read through the built-in {@code system:discovery} role) is not
   * a resource permission and is left out.
   */
  public Set<String> rbacTriples(String agent) {
    return callsBy(agent).stream().filter(c -> !c.resource().isEmpty()).map(c -> c.group() + " " + c.rbacResource() + " " + c.verb()).collect(Collectors.toSet());
  }

  /** The CapacityBuffer CRD as the mock needs it: v1beta1 served and stored, status subresource. */
  public static CustomResourceDefinition capacityBufferCrd() {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName("capacitybuffers." + CapacityBuffer.GROUP).endMetadata()
        .withNewSpec().withGroup(CapacityBuffer.GROUP).withScope("Namespaced")
          .withNewNames().withKind(CapacityBuffer.KIND).withPlural("capacitybuffers").withSingular("capacitybuffer").withListKind("CapacityBufferList").endNames()
          .addNewVersion().withName(CapacityBuffer.VERSION).withServed(true).withStorage(true)
            .withNewSubresources().withNewStatus().endStatus().endSubresources()
            .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
          .endVersion()
        .endSpec().build();
  }

  /** A CRD for a custom scalable kind with a scale subresource (specReplicasPath .spec.replicas etc.). */
  public static CustomResourceDefinition scalableCrd(String group, String kind, String plural) {
    return new CustomResourceDefinitionBuilder()
        .withNewMetadata().withName(plural + "." + group).endMetadata()
        .withNewSpec().withGroup(group).withScope("Namespaced")
          .withNewNames().withKind(kind).withPlural(plural).withSingular(kind.toLowerCase()).withListKind(kind + "List").endNames()
          .addNewVersion().withName("v1alpha1").withServed(true).withStorage(true)
            .withNewSubresources().withNewStatus().endStatus()
              .withNewScale().withSpecReplicasPath(".spec.replicas").withStatusReplicasPath(".status.replicas").withLabelSelectorPath(".status.selector").endScale()
            .endSubresources()
            .withNewSchema().withNewOpenAPIV3Schema().withType("object").withXKubernetesPreserveUnknownFields(true).endOpenAPIV3Schema().endSchema()
          .endVersion()
        .endSpec().build();
  }

  public Map<String, Integer> writeCountsByResource(String agent) {
    Map<String, Integer> out = new HashMap<>();
    writesBy(agent).forEach(c -> out.merge(c.rbacResource() + " " + c.verb(), 1, Integer::sum));
    return out;
  }

  @Override
  public void close() {
    clients.forEach(KubernetesClient::close);
    server.destroy();
  }
}
