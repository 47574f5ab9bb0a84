package dev.headroom.sim.importer;

import dev.headroom.api.Models;
import dev.headroom.core.resources.EffectiveRequests;
import dev.headroom.core.resources.Quantities;
import dev.headroom.sim.scenario.ScenarioParser;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * {@code headroom scenario import}: a cluster as it is, from the objects {@code kubectl get
 * nodes,deployments,statefulsets,hpa,pdb,capacitybuffers -A -o yaml} (and KEDA {@code ScaledObject}s) prints, turned
 * into a scenario. Node groups are inferred from the nodes' node-group labels (EKS, GKE, AKS, Karpenter, kOps, Cluster
 * API, {@code headroom.dev/node-group}) or else from instance type, zone and capacity type, with allocatable and
 * capacity as observed and the observed node count as {@code targetSize}; Deployments and StatefulSets become
 * workloads with their pod's scheduling-relevant spec and replicas; HorizontalPodAutoscalers (v2) and ScaledObjects
 * become the workload autoscaler's settings; the existing CapacityBuffers become one strategy next to {@code none}.
 * What a cluster does not tell — prices, provisioning delays, group bounds, load — is written with a default and a
 * {@code # PLACEHOLDER} comment, and listed in {@link Result#placeholders()}.
 */
public final class ClusterImport {

  /** Marks a value the import could not infer. */
  public static final String PLACEHOLDER = "# PLACEHOLDER";

  /** Node labels that name a node group, in the order they are tried. */
  public static final List<String> GROUP_LABELS = List.of("headroom.dev/node-group", "eks.amazonaws.com/nodegroup",
      "cloud.google.com/gke-nodepool", "kubernetes.azure.com/agentpool", "karpenter.sh/nodepool",
      "karpenter.sh/provisioner-name", "kops.k8s.io/instancegroup", "cluster.x-k8s.io/deployment-name");
  static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";
  static final String ZONE = "topology.kubernetes.io/zone";
  static final List<String> CAPACITY_TYPE_LABELS = List.of("karpenter.sh/capacity-type", "eks.amazonaws.com/capacityType",
      "cloud.google.com/gke-provisioning", "kubernetes.azure.com/scalesetpriority");

  static final double DEFAULT_PRICE = 0.1;
  static final String DEFAULT_DELAY = "2m";
  static final double DEFAULT_CAPACITY = 10;
  static final double DEFAULT_UTILIZATION = 0.5;

  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();

  /**
   * The kinds whose content the import reads; of any other kind it reports only the kind and the name, so a caller
   * may give those objects with their {@code metadata.name} alone.
   */
  public static final java.util.Set<String> READS = java.util.Set.of("Node", "Deployment", "StatefulSet",
      "HorizontalPodAutoscaler", "ScaledObject", "CapacityBuffer", "PodDisruptionBudget");

  /** One object of the dump, with where it was read ({@code FILE:LINE}). */
  public record Source(String kind, Map<String, Object> raw, String where) {}

  /** The scenario text, what was filled with defaults, and what was left out (each with its {@code FILE:LINE}). */
  public record Result(String yaml, List<String> placeholders, List<String> notices) {}

  /** Thrown when the dump cannot give a scenario at all (no nodes, no workloads). */
  public static final class ImportException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    ImportException(String message) {
      super(message);
    }
  }

  private final List<String> placeholders = new ArrayList<>();
  private final List<String> notices = new ArrayList<>();
  private final StringBuilder out = new StringBuilder();

  private ClusterImport() {}

  /** Converts the objects of a dump into a scenario named {@code name}. */
  public static Result convert(String name, String dumpLabel, List<Source> objects) {
    return new ClusterImport().run(name, dumpLabel, objects);
  }

  private record Group(String name, String basis, Map<String, String> labels, Map<String, Object> capacity,
      Map<String, Object> allocatable, List<Object> taints, int count, String where) {}

  private record Workload(String name, String namespace, String kind, int replicas, PodSpec pod, String where) {}

  private Result run(String name, String dumpLabel, List<Source> objects) {
    Map<String, Group> groups = new TreeMap<>();
    Map<String, Workload> workloads = new LinkedHashMap<>();
    List<Source> hpas = new ArrayList<>();
    List<Source> scaledObjects = new ArrayList<>();
    List<Source> buffers = new ArrayList<>();
    for (Source s : objects) {
      switch (s.kind()) {
        case "Node" -> node(s, groups);
        case "Deployment", "StatefulSet" -> workload(s, workloads);
        case "HorizontalPodAutoscaler" -> hpas.add(s);
        case "ScaledObject" -> scaledObjects.add(s);
        case "CapacityBuffer" -> buffers.add(s);
        case "PodDisruptionBudget" -> notices.add(s.where() + ": PodDisruptionBudget " + ns(s) + "/" + name(s)
            + " left out: the simulator's scale-down evicts without PDBs");
        default -> notices.add(s.where() + ": " + s.kind() + " " + name(s) + " ignored (not read by the import)");
      }
    }
    if (groups.isEmpty()) {
      throw new ImportException(dumpLabel + ":1: no Node in the dump (use kubectl get nodes,deployments,statefulsets,hpa,pdb,"
          + "capacitybuffers -A -o yaml)");
    }
    if (workloads.isEmpty()) {
      throw new ImportException(dumpLabel + ":1: no Deployment or StatefulSet in the dump");
    }
    Map<String, String> autoscaling = new LinkedHashMap<>();
    Map<String, Double> cpuTargets = new LinkedHashMap<>();
    for (Source h : hpas) {
      hpa(h, workloads, autoscaling, cpuTargets);
    }
    for (Source k : scaledObjects) {
      scaledObject(k, workloads, autoscaling, cpuTargets);
    }

    line(0, "# Imported by `headroom scenario import` from " + dumpLabel + ".");
    line(0, "# Every value marked " + PLACEHOLDER + " was not in the cluster: replace the default with your own.");
    line(0, "apiVersion: headroom.dev/v1alpha1");
    line(0, "kind: Scenario");
    line(0, "metadata:");
    line(1, "name: " + name);
    line(1, "description: " + quote("imported from " + dumpLabel));
    line(0, "spec:");
    line(1, "duration: 1d" + mark("duration", "1d", "how long to simulate"));
    line(1, "tick: 30s");
    line(1, "seed: 1");
    line(1, "slo: {podWait: 10s}" + mark("slo.podWait", "10s", "your pod-wait target"));
    line(1, "autoscaler: {scanInterval: 10s, expander: price}");
    line(1, "nodeGroups:");
    for (Group g : groups.values()) {
      group(g);
    }
    line(1, "workloads:");
    for (Workload w : workloads.values()) {
      String key = w.namespace() + "/" + w.name();
      line(2, "- name: " + w.name());
      line(3, "namespace: " + w.namespace());
      if ("StatefulSet".equals(w.kind())) {
        line(3, "# a StatefulSet, simulated like a Deployment (ordinal start-up and volumes are not modelled)");
      }
      line(3, "replicas: " + w.replicas());
      line(3, "startupTime: 15s" + mark(key + ".startupTime", "15s", "time from binding to Ready"));
      line(3, "pod:");
      podSpec(w.pod());
      double target = cpuTargets.getOrDefault(key, DEFAULT_UTILIZATION);
      double rate = Math.max(1, w.replicas()) * DEFAULT_CAPACITY * target;
      line(3, "load:");
      line(4, "perReplicaCapacity: " + num(DEFAULT_CAPACITY) + mark(key + ".load.perReplicaCapacity", num(DEFAULT_CAPACITY),
          "requests per second one replica serves"));
      String why = cpuTargets.containsKey(key) ? "today's replicas at their CPU target"
          : "today's replicas " + Math.round(DEFAULT_UTILIZATION * 100) + "% busy";
      line(4, "profile: {type: constant, rate: " + num(rate) + "}" + mark(key + ".load.profile", "constant " + num(rate)
          + "/s, " + why, "a trace or a prometheus profile of the real load"));
      String as = autoscaling.get(key);
      if (as != null) {
        for (String l : as.split("\n")) {
          out.append("      ").append(l).append('\n');
        }
      }
    }
    line(1, "strategies:");
    line(2, "- type: none");
    List<String> defs = new ArrayList<>();
    for (Source b : buffers) {
      String def = buffer(b, workloads);
      if (def != null) {
        defs.add(def);
      }
    }
    if (!defs.isEmpty()) {
      line(2, "- type: buffer");
      line(3, "name: existing-buffers");
      line(3, "buffers:");
      for (String d : defs) {
        line(4, "- " + d);
      }
    }
    return new Result(out.toString(), List.copyOf(placeholders), List.copyOf(notices));
  }

  private void node(Source s, Map<String, Group> groups) {
    Map<String, String> labels = strings(path(s.raw(), "metadata", "labels"));
    Map<String, Object> status = map(s.raw().get("status"));
    Map<String, Object> allocatable = map(status.get("allocatable"));
    Map<String, Object> capacity = map(status.get("capacity"));
    if (allocatable.isEmpty() || !allocatable.containsKey("cpu") || !allocatable.containsKey("memory")) {
      notices.add(s.where() + ": Node " + name(s) + " left out: it reports no allocatable cpu and memory");
      return;
    }
    String basis = null;
    String groupName = null;
    for (String l : GROUP_LABELS) {
      if (labels.containsKey(l)) {
        basis = l;
        groupName = labels.get(l);
        break;
      }
    }
    String type = labels.getOrDefault(INSTANCE_TYPE, labels.getOrDefault("beta.kubernetes.io/instance-type", "unknown"));
    String zone = labels.getOrDefault(ZONE, labels.getOrDefault("failure-domain.beta.kubernetes.io/zone", ""));
    String capType = "";
    for (String l : CAPACITY_TYPE_LABELS) {
      if (labels.containsKey(l)) {
        capType = labels.get(l);
        break;
      }
    }
    // one group per node-group label and shape: a node group (or a Karpenter NodePool) spans instance types,
    // zones and capacity types, but each simulated group has one template
    String key = dns((groupName == null ? "" : groupName + "-") + type + (zone.isEmpty() ? "" : "-" + zone)
        + (capType.isEmpty() ? "" : "-" + capType));
    Map<String, String> template = new TreeMap<>();
    for (String l : labels.keySet()) {
      if (l.equals(INSTANCE_TYPE) || l.equals(ZONE) || CAPACITY_TYPE_LABELS.contains(l) || GROUP_LABELS.contains(l)
          || l.equals("topology.kubernetes.io/region") || l.equals("kubernetes.io/arch") || l.equals("kubernetes.io/os")) {
        template.put(l, labels.get(l));
      }
    }
    Object taints = path(s.raw(), "spec", "taints");
    List<Object> taintList = new ArrayList<>();
    if (taints instanceof List<?> l) {
      for (Object t : l) {
        Map<String, Object> m = map(t);
        // taints the node lifecycle adds and removes are not part of the group's template
        if (!String.valueOf(m.get("key")).startsWith("node.kubernetes.io/") && !String.valueOf(m.get("key")).startsWith("ToBeDeleted")) {
          Map<String, Object> kept = new LinkedHashMap<>();
          for (String f : List.of("key", "value", "effect")) {
            if (m.get(f) != null) {
              kept.put(f, m.get(f));
            }
          }
          taintList.add(kept);
        }
      }
    }
    Group g = groups.get(key);
    String basisText = basis != null ? "label " + basis + "=" + groupName + ", " + type + (zone.isEmpty() ? "" : ", " + zone)
        : "instance type " + type + (zone.isEmpty() ? "" : ", zone " + zone) + (capType.isEmpty() ? "" : ", capacity type " + capType);
    groups.put(key, g == null ? new Group(key, basisText, template, capacity, allocatable, taintList, 1, s.where())
        : new Group(g.name(), g.basis(), g.labels(), g.capacity(), g.allocatable(), g.taints(), g.count() + 1, g.where()));
  }

  private void group(Group g) {
    String id = "nodeGroup " + g.name();
    line(2, "- apiVersion: headroom.dev/v1alpha1");
    line(3, "kind: NodeGroup");
    line(3, "metadata: {name: " + g.name() + "}   # " + g.count() + " node" + (g.count() == 1 ? "" : "s") + " by " + g.basis());
    line(3, "spec:");
    line(4, "minSize: 0" + mark(id + ".minSize", "0", "the group's lower bound"));
    int max = Math.max(10, 2 * g.count());
    line(4, "maxSize: " + max + mark(id + ".maxSize", Integer.toString(max), "the group's upper bound"));
    line(4, "targetSize: " + g.count());
    line(4, "price: " + num(DEFAULT_PRICE) + mark(id + ".price", num(DEFAULT_PRICE), "the price per node-hour"));
    line(4, "provisioningDelay: " + DEFAULT_DELAY + mark(id + ".provisioningDelay", DEFAULT_DELAY,
        "request to Ready of a new node"));
    line(4, "template:");
    line(5, "metadata:");
    line(6, "labels: " + flow(g.labels()));
    if (!g.taints().isEmpty()) {
      line(5, "spec:");
      line(6, "taints:");
      for (Object t : g.taints()) {
        line(7, "- " + flow(map(t)));
      }
    }
    line(5, "status:");
    line(6, "capacity: " + flow(g.capacity().isEmpty() ? g.allocatable() : g.capacity()));
    line(6, "allocatable: " + flow(g.allocatable()));
  }

  private void workload(Source s, Map<String, Workload> workloads) {
    Map<String, Object> spec = map(s.raw().get("spec"));
    Object podRaw = path(spec, "template", "spec");
    if (!(podRaw instanceof Map<?, ?>)) {
      notices.add(s.where() + ": " + s.kind() + " " + ns(s) + "/" + name(s) + " left out: no spec.template.spec");
      return;
    }
    PodSpec full;
    try {
      full = Models.fromTree(podRaw, PodSpec.class);
    } catch (RuntimeException e) {
      notices.add(s.where() + ": " + s.kind() + " " + ns(s) + "/" + name(s) + " left out: not a valid pod template");
      return;
    }
    if (full.getContainers() == null || full.getContainers().isEmpty()) {
      notices.add(s.where() + ": " + s.kind() + " " + ns(s) + "/" + name(s) + " left out: no containers");
      return;
    }
    Object r = spec.get("replicas");
    int replicas = r instanceof Number n ? n.intValue() : 1;
    String n = dns(name(s));
    String namespace = dns(ns(s));
    workloads.put(namespace + "/" + n, new Workload(n, namespace, s.kind(), replicas, schedulingSpec(full), s.where()));
  }

  /** What of a pod spec decides where it fits: container requests and limits, node selection, tolerations. */
  private static PodSpec schedulingSpec(PodSpec full) {
    PodSpec p = new PodSpec();
    List<io.fabric8.kubernetes.api.model.Container> containers = new ArrayList<>();
    for (io.fabric8.kubernetes.api.model.Container c : full.getContainers()) {
      io.fabric8.kubernetes.api.model.Container k = new io.fabric8.kubernetes.api.model.Container();
      k.setName(c.getName());
      k.setImage(ScenarioParser.PAUSE_IMAGE);
      k.setResources(c.getResources());
      containers.add(k);
    }
    p.setContainers(containers);
    if (full.getInitContainers() != null && !full.getInitContainers().isEmpty()) {
      List<io.fabric8.kubernetes.api.model.Container> init = new ArrayList<>();
      for (io.fabric8.kubernetes.api.model.Container c : full.getInitContainers()) {
        io.fabric8.kubernetes.api.model.Container k = new io.fabric8.kubernetes.api.model.Container();
        k.setName(c.getName());
        k.setImage(ScenarioParser.PAUSE_IMAGE);
        k.setResources(c.getResources());
        k.setRestartPolicy(c.getRestartPolicy());
        init.add(k);
      }
      p.setInitContainers(init);
    }
    p.setNodeSelector(full.getNodeSelector());
    p.setTolerations(full.getTolerations());
    p.setAffinity(full.getAffinity());
    p.setTopologySpreadConstraints(full.getTopologySpreadConstraints());
    p.setOverhead(full.getOverhead());
    return p;
  }

  private void podSpec(PodSpec pod) {
    String yaml = SERIALIZATION.asYaml(pod);
    for (String l : yaml.split("\n")) {
      if (l.equals("---") || l.isBlank()) {
        continue;
      }
      out.append("        ").append(l).append('\n');
    }
    if (EffectiveRequests.of(pod).isEmpty()) {
      placeholders.add("a pod without requests (it fits anywhere): " + String.valueOf(pod.getContainers().get(0).getName()));
    }
  }

  private void hpa(Source h, Map<String, Workload> workloads, Map<String, String> autoscaling, Map<String, Double> cpuTargets) {
    Map<String, Object> spec = map(h.raw().get("spec"));
    Map<String, Object> ref = map(spec.get("scaleTargetRef"));
    String key = dns(ns(h)) + "/" + dns(String.valueOf(ref.get("name")));
    if (!workloads.containsKey(key)) {
      notices.add(h.where() + ": HorizontalPodAutoscaler " + ns(h) + "/" + name(h) + " left out: its target "
          + ref.get("kind") + " " + ref.get("name") + " is not in the dump");
      return;
    }
    if (spec.containsKey("targetCPUUtilizationPercentage")) {
      notices.add(h.where() + ": HorizontalPodAutoscaler " + ns(h) + "/" + name(h) + " is autoscaling/v1; read as a CPU target");
    }
    List<String> metrics = new ArrayList<>();
    Object tcpu = spec.get("targetCPUUtilizationPercentage");
    if (tcpu instanceof Number n) {
      metrics.add("{metric: cpu, target: " + n.intValue() + "%}");
      cpuTargets.put(key, n.doubleValue() / 100);
    }
    if (spec.get("metrics") instanceof List<?> list) {
      for (Object o : list) {
        Map<String, Object> m = map(o);
        String type = String.valueOf(m.get("type"));
        if ("Resource".equals(type) || "ContainerResource".equals(type)) {
          Map<String, Object> res = map(m.get("Resource".equals(type) ? "resource" : "containerResource"));
          Map<String, Object> target = map(res.get("target"));
          if ("cpu".equals(res.get("name")) && target.get("averageUtilization") instanceof Number n) {
            metrics.add("{metric: cpu, target: " + n.intValue() + "%}");
            cpuTargets.put(key, n.doubleValue() / 100);
            continue;
          }
        } else if ("External".equals(type) || "Object".equals(type) || "Pods".equals(type)) {
          Map<String, Object> target = map(map(m.get(type.toLowerCase(Locale.ROOT))).get("target"));
          Object v = target.get("averageValue") != null ? target.get("averageValue") : target.get("value");
          double t = quantity(v);
          if (t > 0) {
            metrics.add("{metric: queue, target: " + num(t) + "}   # from the " + type + " metric "
                + map(map(m.get(type.toLowerCase(Locale.ROOT))).get("metric")).get("name"));
            continue;
          }
        }
        notices.add(h.where() + ": HorizontalPodAutoscaler " + ns(h) + "/" + name(h) + ": metric " + type
            + " left out (the simulator models CPU utilisation and one queue per workload)");
      }
    }
    if (metrics.isEmpty()) {
      notices.add(h.where() + ": HorizontalPodAutoscaler " + ns(h) + "/" + name(h) + " has no metric the simulator models;"
          + " a CPU target of 80% (the HPA's default) is used");
      metrics.add("{metric: cpu, target: 80%}");
      cpuTargets.put(key, 0.8);
    }
    StringBuilder b = new StringBuilder("autoscaling:\n  type: hpa\n");
    int min = spec.get("minReplicas") instanceof Number n ? n.intValue() : 1;
    if (min == 0 && metrics.stream().noneMatch(m -> m.contains("queue"))) {
      min = 1;
    }
    b.append("  minReplicas: ").append(min).append('\n');
    b.append("  maxReplicas: ").append(spec.get("maxReplicas") instanceof Number n ? n.intValue() : 10).append('\n');
    Object window = path(spec, "behavior", "scaleDown", "stabilizationWindowSeconds");
    if (window instanceof Number n) {
      b.append("  scaleDownStabilization: ").append(n.intValue()).append("s\n");
    }
    b.append("  metrics:\n");
    for (String m : metrics) {
      b.append("    - ").append(m).append('\n');
    }
    autoscaling.put(key, b.toString().stripTrailing());
  }

  private void scaledObject(Source k, Map<String, Workload> workloads, Map<String, String> autoscaling,
      Map<String, Double> cpuTargets) {
    Map<String, Object> spec = map(k.raw().get("spec"));
    Map<String, Object> ref = map(spec.get("scaleTargetRef"));
    String key = dns(ns(k)) + "/" + dns(String.valueOf(ref.get("name")));
    if (!workloads.containsKey(key)) {
      notices.add(k.where() + ": ScaledObject " + ns(k) + "/" + name(k) + " left out: its target " + ref.get("name")
          + " is not in the dump");
      return;
    }
    List<String> metrics = new ArrayList<>();
    double activation = 0;
    if (spec.get("triggers") instanceof List<?> list) {
      for (Object o : list) {
        Map<String, Object> t = map(o);
        String type = String.valueOf(t.get("type"));
        Map<String, String> md = strings(t.get("metadata"));
        if ("cpu".equals(type)) {
          double v = quantity(md.get("value"));
          metrics.add("{metric: cpu, target: " + num(v) + "%}");
          cpuTargets.put(key, v / 100);
          continue;
        }
        String value = null;
        for (String f : List.of("value", "queueLength", "lagThreshold", "threshold", "targetValue", "listLength",
            "messageCount", "activationThreshold")) {
          if (md.containsKey(f) && !f.startsWith("activation")) {
            value = md.get(f);
            break;
          }
        }
        double v = quantity(value);
        if (v > 0) {
          metrics.add("{metric: queue, target: " + num(v) + "}   # from the " + type + " trigger");
          for (Map.Entry<String, String> e : md.entrySet()) {
            if (e.getKey().startsWith("activation")) {
              activation = Math.max(activation, quantity(e.getValue()));
            }
          }
        } else {
          notices.add(k.where() + ": ScaledObject " + ns(k) + "/" + name(k) + ": trigger " + type
              + " left out (no target value the import recognises)");
        }
      }
    }
    if (metrics.isEmpty()) {
      notices.add(k.where() + ": ScaledObject " + ns(k) + "/" + name(k) + " left out: no trigger the simulator models");
      return;
    }
    if (autoscaling.containsKey(key)) {
      notices.add(k.where() + ": ScaledObject " + ns(k) + "/" + name(k) + " replaces the HorizontalPodAutoscaler KEDA made"
          + " for it");
    }
    StringBuilder b = new StringBuilder("autoscaling:\n  type: keda\n");
    b.append("  minReplicaCount: ").append(spec.get("minReplicaCount") instanceof Number n ? n.intValue() : 0).append('\n');
    b.append("  maxReplicaCount: ").append(spec.get("maxReplicaCount") instanceof Number n ? n.intValue() : 100).append('\n');
    if (spec.get("pollingInterval") instanceof Number n) {
      b.append("  pollingInterval: ").append(n.intValue()).append("s\n");
    }
    if (spec.get("cooldownPeriod") instanceof Number n) {
      b.append("  cooldownPeriod: ").append(n.intValue()).append("s\n");
    }
    if (activation > 0) {
      b.append("  activationThreshold: ").append(num(activation)).append('\n');
    }
    b.append("  metrics:\n");
    for (String m : metrics) {
      b.append("    - ").append(m).append('\n');
    }
    autoscaling.put(key, b.toString().stripTrailing());
  }

  private String buffer(Source b, Map<String, Workload> workloads) {
    Map<String, Object> spec = map(b.raw().get("spec"));
    Map<String, Object> ref = map(spec.get("scalableRef"));
    if (ref.isEmpty()) {
      notices.add(b.where() + ": CapacityBuffer " + ns(b) + "/" + name(b)
          + " left out: only buffers with a scalableRef to an imported workload are simulated");
      return null;
    }
    String key = dns(ns(b)) + "/" + dns(String.valueOf(ref.get("name")));
    if (!workloads.containsKey(key)) {
      notices.add(b.where() + ": CapacityBuffer " + ns(b) + "/" + name(b) + " left out: its workload " + ref.get("name")
          + " is not in the dump");
      return null;
    }
    StringBuilder d = new StringBuilder("{name: " + dns(name(b)) + ", namespace: " + dns(ns(b)) + ", workload: "
        + key.substring(key.indexOf('/') + 1));
    if (spec.get("replicas") instanceof Number n) {
      d.append(", replicas: ").append(n.intValue());
    }
    if (spec.get("percentage") instanceof Number n) {
      d.append(", percentage: ").append(n.intValue());
    }
    if (spec.get("limits") instanceof Map<?, ?> l && !l.isEmpty()) {
      d.append(", limits: ").append(flow(map(l)));
    }
    if (!(spec.get("replicas") instanceof Number) && !(spec.get("percentage") instanceof Number)) {
      notices.add(b.where() + ": CapacityBuffer " + ns(b) + "/" + name(b) + " left out: neither replicas nor percentage");
      return null;
    }
    return d.append('}').toString();
  }

  private String mark(String what, String value, String meaning) {
    placeholders.add(what + " = " + value + "; replace with " + meaning);
    return "   " + PLACEHOLDER + ": " + meaning;
  }

  private void line(int indent, String text) {
    out.append("  ".repeat(indent)).append(text).append('\n');
  }

  private static String flow(Map<String, ?> m) {
    StringBuilder b = new StringBuilder("{");
    boolean first = true;
    for (Map.Entry<String, ?> e : m.entrySet()) {
      b.append(first ? "" : ", ").append(quote(e.getKey())).append(": ").append(quote(String.valueOf(e.getValue())));
      first = false;
    }
    return b.append('}').toString();
  }

  private static String quote(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }

  private static double quantity(Object v) {
    if (v == null) {
      return 0;
    }
    String s = String.valueOf(v).trim();
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      if (Quantities.isValid(s)) {
        return new io.fabric8.kubernetes.api.model.Quantity(s).getNumericalAmount().doubleValue();
      }
      return 0;
    }
  }

  private static String num(double v) {
    java.math.BigDecimal d = java.math.BigDecimal.valueOf(v).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros();
    return d.signum() == 0 ? "0" : d.toPlainString();
  }

  /** A DNS-1123 label made from any name (lower case, other characters as '-', at most 63). */
  static String dns(String s) {
    String d = s.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-").replaceAll("-+", "-").replaceAll("^-|-$", "");
    if (d.length() > 63) {
      d = d.substring(0, 63).replaceAll("-$", "");
    }
    return d.isEmpty() ? "x" : d;
  }

  private static String name(Source s) {
    return String.valueOf(path(s.raw(), "metadata", "name"));
  }

  private static String ns(Source s) {
    Object n = path(s.raw(), "metadata", "namespace");
    return n == null ? "default" : String.valueOf(n);
  }

  private static Object path(Map<String, Object> m, String... keys) {
    Object cur = m;
    for (String k : keys) {
      if (!(cur instanceof Map<?, ?> mm)) {
        return null;
      }
      cur = mm.get(k);
    }
    return cur;
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return o instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  private static Map<String, String> strings(Object o) {
    Map<String, String> out = new TreeMap<>();
    for (Map.Entry<String, Object> e : map(o).entrySet()) {
      out.put(e.getKey(), String.valueOf(e.getValue()));
    }
    return out;
  }
}
