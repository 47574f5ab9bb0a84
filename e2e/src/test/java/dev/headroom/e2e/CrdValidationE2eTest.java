package dev.headroom.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.CapacityBufferVersion;
import dev.headroom.api.validation.CapacityBufferValidator;
import dev.headroom.api.validation.CapacityBufferValidator.Mode;
import dev.headroom.api.validation.FieldError;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;
import tools.jackson.dataformat.yaml.YAMLMapper;

/**
 * Item 1: deploy/'s CRD applies, and kube-apiserver and {@link CapacityBufferValidator} judge every buffer of
 * {@code validation-corpus.yaml} the same way, in both served versions: both admit, or both reject with the same
 * message.
 */
class CrdValidationE2eTest {
  private static final ObjectMapper JSON = JsonMapper.builder().build();
  private static TestBed bed;
  private static String namespace;
  private static int counter;

  @BeforeAll
  static void setUp() {
    bed = TestBed.get();
    bed.applyCrd();
    namespace = bed.namespace("validation");
  }

  @AfterAll
  static void tearDown() {
    if (namespace != null) {
      bed.deleteNamespace(namespace);
    }
  }

  @Test
  void theCommittedCrdAppliesAndServesBothVersions() {
    CustomResourceDefinition crd = bed.applyCrd();
    assertThat(crd.getSpec().getVersions()).extracting(v -> v.getName() + (v.getStorage() ? "*" : ""))
        .containsExactlyInAnyOrder("v1alpha1", "v1beta1*");
    assertThat(crd.getStatus().getAcceptedNames().getKind()).isEqualTo("CapacityBuffer");
  }

  static Stream<Arguments> corpus() throws Exception {
    JsonNode cases;
    try (InputStream in = CrdValidationE2eTest.class.getResourceAsStream("/validation-corpus.yaml")) {
      cases = YAMLMapper.builder().build().readTree(in);
    }
    List<Arguments> out = new ArrayList<>();
    for (JsonNode c : cases) {
      for (CapacityBufferVersion v : CapacityBufferVersion.values()) {
        out.add(Arguments.of(c.get("case").asString() + " [" + v.version() + "]", v, c));
      }
    }
    assertThat(out).hasSizeGreaterThanOrEqualTo(50);
    return out.stream();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("corpus")
  void serverAndValidatorAgree(String name, CapacityBufferVersion version, JsonNode testCase) throws Exception {
    String objectName = "c" + (++counter);
    boolean status = testCase.path("mode").asString("create").equals("status");
    ObjectNode object = testCase.has("object") ? (ObjectNode) testCase.get("object").deepCopy() : JSON.createObjectNode();
    if (testCase.has("spec")) {
      object.set("spec", testCase.get("spec").deepCopy());
    }
    object.put("apiVersion", version.apiVersion());
    object.put("kind", CapacityBufferVersion.KIND);
    ObjectNode metadata = object.putObject("metadata");
    metadata.put("name", objectName);
    metadata.put("namespace", namespace);

    String base = bed.admin().getMasterUrl() + "apis/" + CapacityBufferVersion.GROUP + "/" + version.version()
        + "/namespaces/" + namespace + "/capacitybuffers";
    Mode mode;
    Outcome server;
    if (status) {
      mode = Mode.WHOLE_OBJECT;
      object.set("spec", JSON.createObjectNode().put("replicas", 1));
      Outcome created = send(bed.admin(), "POST", base, object.toString());
      assertThat(created.code()).as("creating the buffer whose status is written: %s", created.message()).isEqualTo(201);
      metadata.put("resourceVersion", JSON.readTree(created.body()).path("metadata").path("resourceVersion").asString());
      object.set("status", testCase.get("status").deepCopy());
      server = send(bed.admin(), "PUT", base + "/" + objectName + "/status", object.toString());
    } else {
      mode = Mode.CREATE;
      server = send(bed.admin(), "POST", base, object.toString());
    }
    List<FieldError> errors = CapacityBufferValidator.validate(object, version, mode);
    String apiServer = server.code() == 201 || server.code() == 200 ? "admitted"
        : server.code() == 422 ? server.message() : "HTTP " + server.code() + ": " + server.message();
    String headroom = errors.isEmpty() ? "admitted" : sameUpToSiblingOrder(objectName, errors, apiServer);
    assertThat(headroom).as("Headroom's verdict against kube-apiserver's for %s", object).isEqualTo(apiServer);
  }

  /**
   * Headroom's message; when the server listed the same errors in another order (kube-apiserver walks sibling
   * properties in Go's random map order), the message with the errors in the server's order.
   */
  static String sameUpToSiblingOrder(String name, List<FieldError> errors, String server) {
    String ours = CapacityBufferValidator.statusMessage(name, errors);
    if (ours.equals(server) || errors.size() > 7) {
      return ours;
    }
    List<FieldError> pool = new ArrayList<>(errors);
    String found = permute(name, pool, new ArrayList<>(), server);
    return found != null ? found : ours;
  }

  private static String permute(String name, List<FieldError> pool, List<FieldError> prefix, String server) {
    if (pool.isEmpty()) {
      String m = CapacityBufferValidator.statusMessage(name, prefix);
      return m.equals(server) ? m : null;
    }
    for (int i = 0; i < pool.size(); i++) {
      FieldError e = pool.remove(i);
      prefix.add(e);
      String m = permute(name, pool, prefix, server);
      prefix.remove(prefix.size() - 1);
      pool.add(i, e);
      if (m != null) {
        return m;
      }
    }
    return null;
  }

  record Outcome(int code, String body, String message) {}

  static Outcome send(KubernetesClient client, String method, String url, String json) throws Exception {
    HttpClient http = client.getHttpClient();
    HttpRequest.Builder b = http.newHttpRequestBuilder().uri(url);
    HttpRequest req = method.equals("POST") ? b.post("application/json", json).build() : b.put("application/json", json).build();
    HttpResponse<String> r = http.sendAsync(req, String.class).get(30, TimeUnit.SECONDS);
    String message = "";
    if (r.code() >= 300) {
      JsonNode n = JSON.readTree(r.body());
      message = n.path("message").asString(r.body());
    }
    return new Outcome(r.code(), r.body(), message);
  }
}
