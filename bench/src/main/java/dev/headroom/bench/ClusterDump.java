package dev.headroom.bench;

import java.io.IOException;
import java.io.Writer;
import java.util.Random;

/**
 * A seeded {@code kubectl get nodes,deployments,pods -A -o yaml} of a large cluster, written as one {@code v1 List}
 * the way kubectl prints it (two-space indentation, items at the list's level), for timing {@code headroom plan} and
 * {@code headroom scenario import} on inputs of a real cluster's size (issue #25: 5,000 nodes and 150,000 pods).
 *
 * <p>Nodes are spread over {@link #GROUPS} node groups (label {@code headroom.dev/node-group}; 16 vCPU / 64 GiB,
 * three zones); Deployments of {@link #REPLICAS} replicas each own a ReplicaSet's pods, which are bound round-robin
 * to the nodes with the fields kubectl prints (labels, owner references, resources, probes, volumes, tolerations,
 * conditions, container statuses); every 100th pod is pending, so that {@code plan} has a scale-up to find. The
 * node groups themselves ({@code headroom.dev/v1alpha1 NodeGroup}) go to a separate file ({@link #writeGroups}),
 * because a cluster dump has none.
 */
public final class ClusterDump {

  /** Node groups of the dump. */
  public static final int GROUPS = 12;
  /** Replicas of each Deployment. */
  public static final int REPLICAS = 100;
  private static final String[] ZONES = {"zone-a", "zone-b", "zone-c"};

  private ClusterDump() {}

  /** Writes {@code nodes} nodes, {@code pods} pods and their Deployments (seed {@code seed}) as one List. */
  public static void write(Writer w, int nodes, int pods, long seed) throws IOException {
    Random random = new Random(seed);
    int deployments = (pods + REPLICAS - 1) / REPLICAS;
    w.write("apiVersion: v1\nitems:\n");
    for (int i = 0; i < nodes; i++) {
      node(w, i);
    }
    int[] cpu = new int[deployments];
    int[] memory = new int[deployments];
    for (int d = 0; d < deployments; d++) {
      cpu[d] = 50 * (1 + random.nextInt(10));
      memory[d] = 64 * (1 + random.nextInt(16));
      deployment(w, d, cpu[d], memory[d]);
    }
    for (int p = 0; p < pods; p++) {
      int d = p / REPLICAS;
      pod(w, p, d, cpu[d], memory[d], p % 100 == 99 ? null : nodeName(p % Math.max(1, nodes)), random);
    }
    w.write("kind: List\nmetadata:\n  resourceVersion: \"\"\n");
  }

  /** Writes the {@link #GROUPS} node groups the dump's nodes belong to, each with room to grow. */
  public static void writeGroups(Writer w, int nodes) throws IOException {
    for (int g = 0; g < GROUPS; g++) {
      int size = nodes / GROUPS + (g < nodes % GROUPS ? 1 : 0);
      w.write("---\napiVersion: headroom.dev/v1alpha1\nkind: NodeGroup\nmetadata:\n  name: " + groupName(g) + "\n"
          + "spec:\n  minSize: 0\n  maxSize: " + (2 * size + 100) + "\n  targetSize: " + size + "\n  price: 0.768\n"
          + "  template:\n    metadata:\n      labels:\n        topology.kubernetes.io/zone: " + ZONES[g % ZONES.length] + "\n"
          + "        node.kubernetes.io/instance-type: m5.4xlarge\n    status:\n"
          + "      capacity: {cpu: \"16\", memory: 64Gi, pods: \"110\"}\n"
          + "      allocatable: {cpu: 15890m, memory: 63Gi, pods: \"110\"}\n");
    }
  }

  static String groupName(int g) {
    return "pool-" + g;
  }

  static String nodeName(int i) {
    return "ip-10-" + (i / 250) + "-" + (i % 250) + ".ec2.internal";
  }

  private static void node(Writer w, int i) throws IOException {
    int g = i % GROUPS;
    String zone = ZONES[g % ZONES.length];
    String name = nodeName(i);
    w.write("- apiVersion: v1\n  kind: Node\n  metadata:\n    annotations:\n"
        + "      node.alpha.kubernetes.io/ttl: \"0\"\n      volumes.kubernetes.io/controller-managed-attach-detach: \"true\"\n"
        + "    creationTimestamp: \"2026-11-30T08:00:00Z\"\n    labels:\n"
        + "      beta.kubernetes.io/arch: amd64\n      beta.kubernetes.io/os: linux\n"
        + "      headroom.dev/node-group: " + groupName(g) + "\n"
        + "      kubernetes.io/arch: amd64\n      kubernetes.io/hostname: " + name + "\n      kubernetes.io/os: linux\n"
        + "      node.kubernetes.io/instance-type: m5.4xlarge\n      topology.kubernetes.io/region: us-east-1\n"
        + "      topology.kubernetes.io/zone: " + zone + "\n"
        + "    name: " + name + "\n    resourceVersion: \"" + (1000 + i) + "\"\n"
        + "    uid: 6f0c" + hex(i, 4) + "-0000-4000-8000-" + hex(i, 12) + "\n"
        + "  spec:\n    providerID: aws:///" + zone + "/i-" + hex(i, 17) + "\n"
        + "  status:\n    addresses:\n    - address: 10.0." + (i / 250) + "." + (i % 250) + "\n      type: InternalIP\n"
        + "    - address: " + name + "\n      type: Hostname\n"
        + "    allocatable:\n      cpu: 15890m\n      ephemeral-storage: \"95491281146\"\n      memory: 63Gi\n      pods: \"110\"\n"
        + "    capacity:\n      cpu: \"16\"\n      ephemeral-storage: 104845292Ki\n      memory: 64Gi\n      pods: \"110\"\n"
        + "    conditions:\n"
        + "    - lastHeartbeatTime: \"2026-12-01T08:00:00Z\"\n      lastTransitionTime: \"2026-11-30T08:01:00Z\"\n"
        + "      message: kubelet is posting ready status\n      reason: KubeletReady\n      status: \"True\"\n      type: Ready\n"
        + "    nodeInfo:\n      architecture: amd64\n      containerRuntimeVersion: containerd://1.7.22\n"
        + "      kernelVersion: 6.1.112\n      kubeletVersion: v1.31.2\n      operatingSystem: linux\n"
        + "      osImage: Amazon Linux 2023\n");
  }

  private static void deployment(Writer w, int d, int cpu, int memory) throws IOException {
    String name = "app-" + d;
    String ns = "team-" + (d % 20);
    w.write("- apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    annotations:\n"
        + "      deployment.kubernetes.io/revision: \"1\"\n    creationTimestamp: \"2026-11-30T08:00:00Z\"\n"
        + "    generation: 1\n    labels:\n      app: " + name + "\n    name: " + name + "\n    namespace: " + ns + "\n"
        + "    resourceVersion: \"" + (20000 + d) + "\"\n    uid: d0c0" + hex(d, 4) + "-0000-4000-8000-" + hex(d, 12) + "\n"
        + "  spec:\n    progressDeadlineSeconds: 600\n    replicas: " + REPLICAS + "\n    revisionHistoryLimit: 10\n"
        + "    selector:\n      matchLabels:\n        app: " + name + "\n"
        + "    strategy:\n      rollingUpdate:\n        maxSurge: 25%\n        maxUnavailable: 25%\n      type: RollingUpdate\n"
        + "    template:\n      metadata:\n        labels:\n          app: " + name + "\n      spec:\n        containers:\n"
        + "        - image: registry.example.com/" + name + ":1.0.0\n          imagePullPolicy: IfNotPresent\n"
        + "          name: app\n          ports:\n          - containerPort: 8080\n            protocol: TCP\n"
        + "          resources:\n            limits:\n              memory: " + (2 * memory) + "Mi\n"
        + "            requests:\n              cpu: " + cpu + "m\n              memory: " + memory + "Mi\n"
        + "        dnsPolicy: ClusterFirst\n        restartPolicy: Always\n        schedulerName: default-scheduler\n"
        + "        terminationGracePeriodSeconds: 30\n"
        + "  status:\n    availableReplicas: " + REPLICAS + "\n    observedGeneration: 1\n    readyReplicas: " + REPLICAS + "\n"
        + "    replicas: " + REPLICAS + "\n    updatedReplicas: " + REPLICAS + "\n");
  }

  private static void pod(Writer w, int p, int d, int cpu, int memory, String node, Random random) throws IOException {
    String app = "app-" + d;
    String ns = "team-" + (d % 20);
    String hash = hex(d * 2654435761L, 10).substring(0, 10);
    // unique within the Deployment: an odd multiplier is a bijection of the pod indexes modulo 2^20
    String name = app + "-" + hash + "-" + hex(p * 0x9E3B5L, 5);
    StringBuilder b = new StringBuilder(2048);
    b.append("- apiVersion: v1\n  kind: Pod\n  metadata:\n    creationTimestamp: \"2026-11-30T09:00:00Z\"\n")
        .append("    generateName: ").append(app).append('-').append(hash).append("-\n    labels:\n      app: ").append(app)
        .append("\n      pod-template-hash: \"").append(hash).append("\"\n    name: ").append(name)
        .append("\n    namespace: ").append(ns).append("\n    ownerReferences:\n    - apiVersion: apps/v1\n")
        .append("      blockOwnerDeletion: true\n      controller: true\n      kind: ReplicaSet\n      name: ")
        .append(app).append('-').append(hash).append("\n      uid: 5e70").append(hex(d, 4)).append("-0000-4000-8000-")
        .append(hex(d, 12)).append("\n    resourceVersion: \"").append(100000 + p).append("\"\n    uid: 90d0")
        .append(hex(p >>> 16, 4)).append("-0000-4000-8000-").append(hex(p, 12)).append('\n')
        .append("  spec:\n    containers:\n    - env:\n      - name: POD_NAME\n        valueFrom:\n          fieldRef:\n")
        .append("            apiVersion: v1\n            fieldPath: metadata.name\n")
        .append("      image: registry.example.com/").append(app).append(":1.0.0\n      imagePullPolicy: IfNotPresent\n")
        .append("      livenessProbe:\n        failureThreshold: 3\n        httpGet:\n          path: /healthz\n          port: http\n")
        .append("          scheme: HTTP\n        periodSeconds: 10\n        successThreshold: 1\n        timeoutSeconds: 1\n")
        .append("      name: app\n      ports:\n      - containerPort: 8080\n        name: http\n        protocol: TCP\n")
        .append("      resources:\n        limits:\n          memory: ").append(2 * memory).append("Mi\n")
        .append("        requests:\n          cpu: ").append(cpu).append("m\n          memory: ").append(memory).append("Mi\n")
        .append("      terminationMessagePath: /dev/termination-log\n      terminationMessagePolicy: File\n")
        .append("      volumeMounts:\n      - mountPath: /var/run/secrets/kubernetes.io/serviceaccount\n")
        .append("        name: kube-api-access-").append(hash, 0, 5).append("\n        readOnly: true\n")
        .append("    dnsPolicy: ClusterFirst\n    enableServiceLinks: true\n");
    if (node != null) {
      b.append("    nodeName: ").append(node).append('\n');
    }
    b.append("    preemptionPolicy: PreemptLowerPriority\n    priority: 0\n    restartPolicy: Always\n")
        .append("    schedulerName: default-scheduler\n    securityContext: {}\n    serviceAccount: default\n")
        .append("    serviceAccountName: default\n    terminationGracePeriodSeconds: 30\n    tolerations:\n")
        .append("    - effect: NoExecute\n      key: node.kubernetes.io/not-ready\n      operator: Exists\n      tolerationSeconds: 300\n")
        .append("    - effect: NoExecute\n      key: node.kubernetes.io/unreachable\n      operator: Exists\n      tolerationSeconds: 300\n")
        .append("    volumes:\n    - name: kube-api-access-").append(hash, 0, 5).append("\n      projected:\n        defaultMode: 420\n")
        .append("        sources:\n        - serviceAccountToken:\n            expirationSeconds: 3607\n            path: token\n")
        .append("        - configMap:\n            items:\n            - key: ca.crt\n              path: ca.crt\n            name: kube-root-ca.crt\n");
    if (node == null) {
      b.append("  status:\n    conditions:\n    - lastProbeTime: null\n      lastTransitionTime: \"2026-12-01T08:00:00Z\"\n")
          .append("      message: '0/5000 nodes are available: insufficient cpu.'\n      reason: Unschedulable\n")
          .append("      status: \"False\"\n      type: PodScheduled\n    phase: Pending\n    qosClass: Burstable\n");
    } else {
      b.append("  status:\n    conditions:\n    - lastProbeTime: null\n      lastTransitionTime: \"2026-11-30T09:00:05Z\"\n")
          .append("      status: \"True\"\n      type: Ready\n    - lastProbeTime: null\n")
          .append("      lastTransitionTime: \"2026-11-30T09:00:00Z\"\n      status: \"True\"\n      type: PodScheduled\n")
          .append("    containerStatuses:\n    - containerID: containerd://").append(hex(p, 16)).append('\n')
          .append("      image: registry.example.com/").append(app).append(":1.0.0\n      name: app\n      ready: true\n")
          .append("      restartCount: 0\n      started: true\n      state:\n        running:\n")
          .append("          startedAt: \"2026-11-30T09:00:03Z\"\n    hostIP: 10.0.0.1\n    phase: Running\n")
          .append("    podIP: 10.1.").append((p >> 8) & 255).append('.').append(p & 255).append("\n    qosClass: Burstable\n")
          .append("    startTime: \"2026-11-30T09:00:00Z\"\n");
    }
    w.write(b.toString());
  }

  private static String hex(long v, int digits) {
    String h = Long.toHexString(v & ((digits >= 16) ? -1L : ((1L << (4 * digits)) - 1)));
    StringBuilder b = new StringBuilder(digits);
    for (int i = h.length(); i < digits; i++) {
      b.append('0');
    }
    return b.append(h).toString();
  }
}
