package dev.headroom.e2e;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * The control plane the tier runs against: the one {@code e2e/cluster up} started (its kubeconfig in
 * {@code HEADROOM_E2E_KUBECONFIG}, as {@code ./e2e/run} passes it), or else one this JVM starts under
 * {@code target/e2e/bed} and stops when it exits (keeping every component's log under {@code target/e2e/bed-logs}).
 */
public final class TestBed {
  /** The CRD as committed under deploy/. */
  public static final String CRD = "deploy/crds/capacitybuffers.autoscaling.x-k8s.io.yaml";

  private static TestBed instance;

  private final Path root;
  private final Path out;
  private final Path kubeconfig;
  private final Map<String, String> env;
  private final KubernetesClient admin;

  private TestBed(Path root, Path out, Path kubeconfig, Map<String, String> env) {
    this.root = root;
    this.out = out;
    this.kubeconfig = kubeconfig;
    this.env = env;
    this.admin = client(kubeconfig);
  }

  /** The bed, started or attached on first use. */
  public static synchronized TestBed get() {
    if (instance == null) {
      instance = start();
    }
    return instance;
  }

  private static TestBed start() {
    Path root = Path.of(System.getProperty("headroom.root", "..")).toAbsolutePath().normalize();
    Path out = Path.of(System.getProperty("headroom.e2e.out", "target/e2e")).toAbsolutePath().normalize();
    try {
      Files.createDirectories(out);
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    String attached = System.getenv("HEADROOM_E2E_KUBECONFIG");
    if (attached != null && !attached.isBlank()) {
      Path kc = Path.of(attached);
      return new TestBed(root, out, kc, Map.of("HEADROOM_E2E_STATE", kc.getParent().toString()));
    }
    Map<String, String> env = Map.of("HEADROOM_E2E_STATE", out.resolve("bed").toString(),
        "HEADROOM_E2E_KEEP_LOGS", out.resolve("bed-logs").toString());
    Path kc = Path.of(Scripts.run(root, env, Duration.ofMinutes(45), root.resolve("e2e/cluster").toString(), "up").strip());
    Runtime.getRuntime().addShutdownHook(new Thread(() ->
        Scripts.run(root, env, Duration.ofMinutes(1), root.resolve("e2e/cluster").toString(), "down"), "e2e-bed-down"));
    return new TestBed(root, out, kc, env);
  }

  /** A fabric8 client for a kubeconfig file. */
  public static KubernetesClient client(Path kubeconfig) {
    try {
      Config config = Config.fromKubeconfig(Files.readString(kubeconfig, StandardCharsets.UTF_8));
      config.setRequestTimeout(30_000);
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The project's root directory. */
  public Path root() {
    return root;
  }

  /** Where tests write what they keep (logs of the Headroom processes, measurements). */
  public Path out() {
    return out;
  }

  /** The environment the project's scripts need to find this bed (its state directory). */
  public Map<String, String> scriptEnv() {
    return env;
  }

  /** The admin kubeconfig (user admin, group system:masters). */
  public Path kubeconfig() {
    return kubeconfig;
  }

  /** The admin client; do not close. */
  public KubernetesClient admin() {
    return admin;
  }

  /** The API server's audit log (writes at RequestResponse level). */
  public AuditLog audit() {
    return new AuditLog(auditLogPath());
  }

  /** The API server's audit log (for a reader that must not keep it: at size it holds every write's body). */
  public Path auditLogPath() {
    return kubeconfig.getParent().resolve("logs/audit.log");
  }

  /** A kubeconfig for a fresh client-certificate user (see {@code e2e/cluster user}). */
  public Path user(String name, String... groups) {
    List<String> cmd = new ArrayList<>(List.of(root.resolve("e2e/cluster").toString(), "user", name));
    cmd.addAll(List.of(groups));
    return Path.of(Scripts.run(root, env, Duration.ofMinutes(1), cmd.toArray(String[]::new)).strip());
  }

  /** Applies the committed CRD (server-side apply) and waits until it is Established; returns it as stored. */
  public synchronized CustomResourceDefinition applyCrd() {
    try (InputStream in = Files.newInputStream(root.resolve(CRD))) {
      CustomResourceDefinition crd = admin.apiextensions().v1().customResourceDefinitions().load(in).item();
      admin.resource(crd).fieldManager("headroom-e2e").forceConflicts().serverSideApply();
      String name = crd.getMetadata().getName();
      await("CRD " + name + " Established").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
          .until(() -> established(admin.apiextensions().v1().customResourceDefinitions().withName(name).get()));
      return admin.apiextensions().v1().customResourceDefinitions().withName(name).get();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Deletes the committed CRD (every CapacityBuffer with it) and waits until the API server no longer has it. */
  public synchronized void deleteCrd() {
    String name = "capacitybuffers.autoscaling.x-k8s.io";
    admin.apiextensions().v1().customResourceDefinitions().withName(name).delete();
    await("CRD " + name + " deleted").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> admin.apiextensions().v1().customResourceDefinitions().withName(name).get() == null);
  }

  /** The test resource holding a minimal PodGroup CRD of the coscheduling plugin's API group. */
  public static final String POD_GROUP_CRD = "/gang/podgroups.scheduling.x-k8s.io.yaml";
  /** Its name. */
  public static final String POD_GROUP_CRD_NAME = "podgroups.scheduling.x-k8s.io";

  /** Applies the minimal PodGroup CRD ({@link #POD_GROUP_CRD}) and waits until it is Established. */
  public synchronized void applyPodGroupCrd() {
    try (InputStream in = TestBed.class.getResourceAsStream(POD_GROUP_CRD)) {
      CustomResourceDefinition crd = admin.apiextensions().v1().customResourceDefinitions().load(in).item();
      admin.resource(crd).fieldManager("headroom-e2e").forceConflicts().serverSideApply();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
    await("CRD " + POD_GROUP_CRD_NAME + " Established").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> established(admin.apiextensions().v1().customResourceDefinitions().withName(POD_GROUP_CRD_NAME).get()));
  }

  /** Deletes the PodGroup CRD if it exists and waits until it is gone. */
  public synchronized void deletePodGroupCrd() {
    admin.apiextensions().v1().customResourceDefinitions().withName(POD_GROUP_CRD_NAME).delete();
    await("CRD " + POD_GROUP_CRD_NAME + " deleted").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
        .until(() -> admin.apiextensions().v1().customResourceDefinitions().withName(POD_GROUP_CRD_NAME).get() == null);
  }

  /** {@code e2e/cluster restart-apiserver}: stops kube-apiserver and starts it again on the same port; returns once ready. */
  public void restartApiServer() {
    Scripts.run(root, env, Duration.ofMinutes(3), root.resolve("e2e/cluster").toString(), "restart-apiserver");
  }

  /** {@code e2e/cluster restart-etcd}: kills etcd and starts it again on the same data; returns once the API is ready. */
  public void restartEtcd() {
    Scripts.run(root, env, Duration.ofMinutes(3), root.resolve("e2e/cluster").toString(), "restart-etcd");
  }

  /** {@code e2e/cluster compact-etcd}: compacts etcd's history to its current revision, which it returns. */
  public long compactEtcd() {
    return Long.parseLong(Scripts.run(root, env, Duration.ofMinutes(1), root.resolve("e2e/cluster").toString(), "compact-etcd").strip());
  }

  private static boolean established(CustomResourceDefinition crd) {
    return crd != null && crd.getStatus() != null && crd.getStatus().getConditions() != null
        && crd.getStatus().getConditions().stream().anyMatch(c -> c.getType().equals("Established") && c.getStatus().equals("True"));
  }

  /** Creates a namespace {@code prefix-xxxxx} and waits for its default ServiceAccount (pods need it). */
  /**
   * Writes a kwok NodeGroup document for {@code --node-groups}: group {@code name}, 0 to {@code maxSize} nodes of
   * 4 CPU / 8 GiB that turn Ready after 1 s, and returns its path.
   */
  public Path nodeGroupFile(String name, int maxSize) throws java.io.IOException {
    return nodeGroupFile(name, maxSize, "1s", "");
  }

  /**
   * As {@link #nodeGroupFile(String, int)}, with the nodes' {@code provisioningDelay} and {@code specLines} (further
   * {@code spec} fields, one per line, e.g. {@code standby: {resumeDelay: 3s}}).
   */
  public Path nodeGroupFile(String name, int maxSize, String provisioningDelay, String specLines) throws java.io.IOException {
    Path file = out().resolve(name + "-node-groups.yaml");
    StringBuilder extra = new StringBuilder();
    for (String line : specLines.lines().toList()) {
      extra.append("\n  ").append(line);
    }
    java.nio.file.Files.writeString(file, """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: %s
        spec:
          minSize: 0
          maxSize: %d
          targetSize: 0
          price: 0.2
          provisioningDelay: %s%s
          template:
            metadata:
              labels:
                node.kubernetes.io/instance-type: e2e-4x8
            status:
              capacity:    {cpu: "4", memory: 8Gi, pods: "110"}
              allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
        """.formatted(name, maxSize, provisioningDelay, extra));
    return file;
  }

  public String namespace(String prefix) {
    return createNamespace(prefix + "-" + Long.toString(ThreadLocalRandom.current().nextLong(36L * 36 * 36 * 36 * 36), 36));
  }

  /** Creates a namespace of this name and waits for its default ServiceAccount. */
  public String createNamespace(String name) {
    admin.namespaces().resource(new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build()).create();
    await("ServiceAccount " + name + "/default").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
        .until(() -> admin.serviceAccounts().inNamespace(name).withName("default").get() != null);
    return name;
  }

  /** Deletes a namespace and waits until it is gone (its pods with it). */
  public void deleteNamespace(String name) {
    admin.namespaces().withName(name).delete();
    await("namespace " + name + " deleted").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofMillis(200))
        .until(() -> admin.namespaces().withName(name).get() == null);
  }

  /**
   * Runs kubectl as admin against the bed and returns its standard output: the one in {@code KUBEBUILDER_ASSETS}, else
   * the one {@code e2e/cluster build} built, else the one on {@code PATH}.
   */
  public String kubectl(String... args) {
    String assets = System.getenv("KUBEBUILDER_ASSETS");
    String cacheRoot = System.getenv().getOrDefault("HEADROOM_E2E_CACHE", System.getProperty("user.home") + "/.cache/headroom-e2e");
    Path built = Path.of(cacheRoot, "v1.36.3", "bin", "kubectl");
    String kubectl = assets != null && Files.isExecutable(Path.of(assets, "kubectl")) ? Path.of(assets, "kubectl").toString()
        : Files.isExecutable(built) ? built.toString() : "kubectl";
    List<String> cmd = new ArrayList<>(List.of(kubectl, "--kubeconfig=" + kubeconfig));
    cmd.addAll(List.of(args));
    return Scripts.run(root, Map.of(), Duration.ofMinutes(1), cmd.toArray(String[]::new));
  }

  /** Creates an object in a namespace. */
  public <T extends HasMetadata> T create(String namespace, T object) {
    return admin.resource(object).inNamespace(namespace).create();
  }

}
