package dev.headroom.sim.scenario;

import dev.headroom.api.Models;
import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import dev.headroom.core.autoscaler.AutoscalerOptions;
import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.core.buffer.BufferConditions;
import dev.headroom.core.buffer.BufferConsumption;
import dev.headroom.core.input.InputText;
import dev.headroom.core.input.TextInputException;
import dev.headroom.core.nodegroup.GoDuration;
import dev.headroom.core.nodegroup.NodeGroup;
import dev.headroom.core.nodegroup.NodeGroupDocument;
import dev.headroom.core.nodegroup.NodeGroupFormatException;
import dev.headroom.core.resources.Quantities;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Strict reader of scenario files ({@code apiVersion: headroom.dev/v1alpha1}, {@code kind: Scenario}). Node
 * groups are {@code NodeGroup} documents, either listed under {@code spec.nodeGroups} or appended to the file
 * as further YAML documents. Every error is a {@link ScenarioException} carrying {@code FILE:LINE}.
 */
public final class ScenarioParser {

  /** API version of scenario documents. */
  public static final String API_VERSION = "headroom.dev/v1alpha1";
  /** Kind of scenario documents. */
  public static final String KIND = "Scenario";
  /** Image of the pods built from a {@code requests:} shorthand and of balloon pods. */
  public static final String PAUSE_IMAGE = "registry.k8s.io/pause:3.10";
  /** Balloon priority of the Cluster Autoscaler FAQ's overprovisioning PriorityClass. */
  public static final int FAQ_BALLOON_PRIORITY = -10;
  /**
   * The provisioning strategies a scenario buffer may name: the upstream one (the CRD default) and Headroom's standby
   * strategy, which the simulation then turns on in the buffer controller and the autoscaler for that strategy.
   */
  static final Set<String> PROVISIONING_STRATEGIES = Set.of(BufferConditions.STRATEGY_ACTIVE_CAPACITY,
      BufferConditions.STRATEGY_STANDBY_CAPACITY);

  private static final Pattern NAME = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

  private final Path baseDir;

  private ScenarioParser(Path baseDir) {
    this.baseDir = baseDir;
  }

  /**
   * The longest scenario (90 days): the simulator keeps one sample per tick and strategy for the report, so memory
   * grows with the number of ticks; see also {@link #MAX_TICKS}.
   */
  public static final Duration MAX_DURATION = Duration.ofDays(90);
  /** The most ticks of one run ({@code spec.duration / spec.tick}): 90 days at a 60s tick, 7 days at 5s fit. */
  public static final long MAX_TICKS = 200_000;
  /** The shortest interval of anything that repeats (autoscaler loop, buffer sync, jobs, metric polls). */
  public static final Duration MIN_INTERVAL = Duration.ofSeconds(1);

  /** Parses a scenario file; relative trace paths resolve against the file's directory. */
  public static Scenario parseFile(Path file) {
    String label = file.toString();
    String text;
    try {
      if (Files.isDirectory(file)) {
        throw new ScenarioException(label, 1, "cannot read the scenario: is a directory");
      }
      text = InputText.decode(Files.readAllBytes(file));
    } catch (IOException e) {
      throw new ScenarioException(label, 1, "cannot read the scenario: " + InputText.whyUnreadable(e));
    } catch (TextInputException e) {
      throw new ScenarioException(label, Math.max(1, e.line()), e.getMessage());
    }
    Path parent = file.toAbsolutePath().getParent();
    return new ScenarioParser(parent).parse(label, text);
  }

  /** Parses scenario text; {@code baseDir} resolves relative trace paths (may be null). */
  public static Scenario parse(String label, String text, Path baseDir) {
    return new ScenarioParser(baseDir).parse(label, text);
  }

  private Scenario parse(String label, String text) {
    List<YamlValue> docs = YamlDocuments.read(label, text);
    YamlValue scenarioDoc = null;
    List<YamlValue> groupDocs = new ArrayList<>();
    for (YamlValue d : docs) {
      if (d.isNull()) {
        continue;
      }
      if (!d.isMap()) {
        throw d.error("each document must be a mapping with apiVersion and kind");
      }
      String kind = d.get("kind") == null ? "" : d.get("kind").string();
      if (KIND.equals(kind)) {
        if (scenarioDoc != null) {
          throw d.error("only one Scenario document is allowed per file");
        }
        scenarioDoc = d;
      } else if (NodeGroupDocument.KIND.equals(kind)) {
        groupDocs.add(d);
      } else {
        throw (d.get("kind") == null ? d : d.get("kind")).error("kind must be " + KIND + " or " + NodeGroupDocument.KIND);
      }
    }
    if (scenarioDoc == null) {
      throw new ScenarioException(label, 1, "no document of kind " + KIND);
    }
    YamlValue doc = scenarioDoc.allowOnly(Set.of("apiVersion", "kind", "metadata", "spec"));
    String apiVersion = doc.required("apiVersion").string();
    if (!API_VERSION.equals(apiVersion)) {
      throw doc.get("apiVersion").error("apiVersion must be " + API_VERSION);
    }
    YamlValue meta = doc.required("metadata").allowOnly(Set.of("name", "description"));
    String name = dnsName(meta.required("name"));
    String description = meta.get("description") == null ? "" : meta.get("description").string();
    YamlValue spec = doc.required("spec").allowOnly(Set.of("duration", "tick", "seed", "slo", "model", "autoscaler",
        "nodeGroups", "workloads", "jobs", "gangJobs", "strategies", "currency"));

    Duration duration = positive(spec.required("duration"));
    if (duration.compareTo(MAX_DURATION) > 0) {
      throw spec.get("duration").error("duration " + spec.get("duration").string().trim() + " is longer than the maximum "
          + MAX_DURATION.toHours() + "h (" + MAX_DURATION.toDays() + "d)");
    }
    Duration tick = spec.get("tick") == null ? Duration.ofSeconds(5) : positive(spec.get("tick"));
    if (tick.toMillis() < 1000 || tick.toMillis() % 1000 != 0) {
      throw spec.get("tick").error("must be a whole number of seconds, at least 1s");
    }
    if (tick.compareTo(duration) > 0) {
      throw spec.get("tick").error("must not be longer than spec.duration");
    }
    long ticks = duration.toMillis() / tick.toMillis();
    if (ticks > MAX_TICKS) {
      throw spec.get("duration").error("duration " + spec.get("duration").string().trim() + " at a tick of " + GoDuration.format(tick)
          + " is " + ticks + " ticks, more than the maximum " + MAX_TICKS + " (use a longer spec.tick or a shorter duration)");
    }
    long seed = spec.get("seed") == null ? 1 : spec.get("seed").longValue();
    YamlValue slo = spec.required("slo").allowOnly(Set.of("podWait"));
    Duration sloWait = slo.required("podWait").duration();

    Scenario.Settings settings = settings(spec.get("model"));
    AutoscalerOptions.Builder options = AutoscalerOptions.builder();
    if (spec.get("autoscaler") != null) {
      for (Map.Entry<String, YamlValue> e : spec.get("autoscaler").entries().entrySet()) {
        Object raw = e.getValue().plain();
        if (raw instanceof Map || raw instanceof List) {
          throw e.getValue().error("must be a single value");
        }
        try {
          options.set(e.getKey(), raw == null ? "" : String.valueOf(raw));
        } catch (IllegalArgumentException ex) {
          throw e.getValue().error(ex.getMessage());
        }
      }
    }
    AutoscalerOptions autoscaler;
    try {
      autoscaler = options.build();
    } catch (RuntimeException ex) {
      throw spec.get("autoscaler") == null ? spec.error(ex.getMessage()) : spec.get("autoscaler").error(ex.getMessage());
    }
    try {
      dev.headroom.core.autoscaler.expander.Expanders.parse(autoscaler.expander());
    } catch (IllegalArgumentException ex) {
      YamlValue at = spec.get("autoscaler").get("expander");
      throw (at == null ? spec.get("autoscaler") : at).error(ex.getMessage());
    }

    List<YamlValue> groupValues = new ArrayList<>();
    if (spec.get("nodeGroups") != null) {
      groupValues.addAll(spec.get("nodeGroups").list());
    }
    groupValues.addAll(groupDocs);
    if (groupValues.isEmpty()) {
      throw spec.error("at least one NodeGroup is required (spec.nodeGroups or further NodeGroup documents)");
    }
    List<NodeGroup> groups = new ArrayList<>();
    Set<String> groupNames = new HashSet<>();
    for (YamlValue g : groupValues) {
      NodeGroup group = nodeGroup(g);
      if (!groupNames.add(group.id())) {
        throw g.locate("metadata.name").error("duplicate node group \"" + group.id() + "\"");
      }
      groups.add(group);
    }

    List<Scenario.Workload> workloads = new ArrayList<>();
    Set<String> workloadNames = new HashSet<>();
    if (spec.get("workloads") != null) {
      for (YamlValue w : spec.get("workloads").list()) {
        Scenario.Workload wl = workload(w);
        if (!workloadNames.add(wl.namespace() + "/" + wl.name())) {
          throw w.get("name").error("duplicate workload \"" + wl.name() + "\"");
        }
        workloads.add(wl);
      }
    }
    List<Scenario.Job> jobs = new ArrayList<>();
    if (spec.get("jobs") != null) {
      for (YamlValue j : spec.get("jobs").list()) {
        Scenario.Job job = job(j);
        if (!workloadNames.add(job.namespace() + "/" + job.name())) {
          throw j.get("name").error("duplicate workload or job name \"" + job.name() + "\"");
        }
        jobs.add(job);
      }
    }
    List<Scenario.GangJob> gangJobs = new ArrayList<>();
    if (spec.get("gangJobs") != null) {
      for (YamlValue j : spec.get("gangJobs").list()) {
        Scenario.GangJob job = gangJob(j, duration);
        if (!workloadNames.add(job.namespace() + "/" + job.name())) {
          throw j.get("name").error("duplicate workload or job name \"" + job.name() + "\"");
        }
        gangJobs.add(job);
      }
    }
    if (workloads.isEmpty() && jobs.isEmpty() && gangJobs.isEmpty()) {
      throw spec.error("at least one workload, job or gang job is required");
    }

    List<Scenario.Strategy> strategies = new ArrayList<>();
    Set<String> strategyNames = new HashSet<>();
    YamlValue strategyList = spec.get("strategies");
    if (strategyList == null) {
      strategies.add(new Scenario.NoBuffer("none"));
    } else {
      for (YamlValue s : strategyList.list()) {
        Scenario.Strategy st = strategy(s, workloads, gangJobs, groups);
        if (!strategyNames.add(st.name())) {
          throw s.error("duplicate strategy name \"" + st.name() + "\" (set name: to tell them apart)");
        }
        strategies.add(st);
      }
      if (strategies.isEmpty()) {
        throw strategyList.error("at least one strategy is required");
      }
    }
    return new Scenario(doc.file(), name, description, duration, tick, seed, sloWait, settings, autoscaler, groups,
        workloads, jobs, gangJobs, strategies, currency(spec.get("currency")));
  }

  private static String currency(YamlValue v) {
    if (v == null) {
      return "";
    }
    String c = v.string().strip();
    if (c.isEmpty() || c.length() > 8 || !c.chars().allMatch(ch -> ch > 0x20 && ch < 0x7f)) {
      throw v.error("must be a short currency code such as USD or EUR (1 to 8 printable characters)");
    }
    return c;
  }

  private Scenario.Settings settings(YamlValue m) {
    if (m != null) {
      m.allowOnly(Set.of("preemptionDelay", "metricsDelay", "provisioningJitter", "bufferSyncInterval"));
    }
    return new Scenario.Settings(
        dur(m, "preemptionDelay", Duration.ofSeconds(5)),
        dur(m, "metricsDelay", Duration.ofSeconds(30)),
        dur(m, "provisioningJitter", Duration.ZERO),
        interval(m, "bufferSyncInterval", Duration.ofSeconds(10)));
  }

  private static NodeGroup nodeGroup(YamlValue g) {
    Object plain = g.plain();
    if (!(plain instanceof Map<?, ?> map)) {
      throw g.error("a node group must be a NodeGroup document (a mapping)");
    }
    @SuppressWarnings("unchecked")
    Map<String, ?> doc = (Map<String, ?>) map;
    try {
      return NodeGroupDocument.parse(doc);
    } catch (NodeGroupFormatException e) {
      throw g.locate(e.path()).error(e.getMessage());
    } catch (RuntimeException e) {
      throw g.error("invalid NodeGroup: " + e.getMessage());
    }
  }

  private Scenario.Workload workload(YamlValue w) {
    w.allowOnly(Set.of("name", "namespace", "replicas", "priority", "startupTime", "pod", "requests", "load",
        "autoscaling"));
    String name = dnsName(w.required("name"));
    String ns = w.get("namespace") == null ? "default" : dnsName(w.get("namespace"));
    int replicas = w.get("replicas") == null ? 1 : w.get("replicas").intValue(0, 100_000);
    int priority = w.get("priority") == null ? 0 : w.get("priority").intValue(-1_000_000_000, 1_000_000_000);
    Duration startup = dur(w, "startupTime", Duration.ofSeconds(10));
    PodSpec pod = podSpec(w);
    YamlValue l = w.required("load").allowOnly(Set.of("profile", "perReplicaCapacity", "noise"));
    double capacity = l.required("perReplicaCapacity").number();
    if (capacity <= 0) {
      throw l.get("perReplicaCapacity").error("must be > 0");
    }
    double noise = l.get("noise") == null ? 0 : l.get("noise").nonNegative();
    LoadProfile profile = profile(l.required("profile"));
    Scenario.Autoscaling as = autoscaling(w.get("autoscaling"), replicas);
    return new Scenario.Workload(name, ns, replicas, priority, startup, pod, new Scenario.Load(profile, capacity, noise), as);
  }

  private Scenario.Job job(YamlValue j) {
    j.allowOnly(Set.of("name", "namespace", "priority", "start", "every", "parallelism", "runTime", "startupTime",
        "pod", "requests"));
    String name = dnsName(j.required("name"));
    String ns = j.get("namespace") == null ? "default" : dnsName(j.get("namespace"));
    int priority = j.get("priority") == null ? 0 : j.get("priority").intValue(-1_000_000_000, 1_000_000_000);
    Duration start = dur(j, "start", Duration.ZERO);
    Duration every = dur(j, "every", Duration.ZERO);
    if (!every.isZero() && every.compareTo(MIN_INTERVAL) < 0) {
      throw j.get("every").error("must be 0 (run once) or at least " + GoDuration.format(MIN_INTERVAL));
    }
    int parallelism = j.get("parallelism") == null ? 1 : j.get("parallelism").intValue(1, 100_000);
    Duration runTime = positive(j.required("runTime"));
    Duration startup = dur(j, "startupTime", Duration.ofSeconds(5));
    return new Scenario.Job(name, ns, priority, start, every, parallelism, runTime, startup, podSpec(j));
  }

  private Scenario.GangJob gangJob(YamlValue j, Duration duration) {
    j.allowOnly(Set.of("name", "namespace", "priority", "workers", "start", "every", "arrivals", "runTime",
        "rendezvousTimeout", "retryAfter", "pod", "requests"));
    String name = dnsName(j.required("name"));
    String ns = j.get("namespace") == null ? "default" : dnsName(j.get("namespace"));
    int priority = j.get("priority") == null ? 0 : j.get("priority").intValue(-1_000_000_000, 1_000_000_000);
    int workers = j.required("workers").intValue(1, 10_000);
    Duration start = dur(j, "start", Duration.ZERO);
    if (start.compareTo(duration) >= 0) {
      throw j.get("start").error("must be earlier than spec.duration");
    }
    Duration every = dur(j, "every", Duration.ZERO);
    LoadProfile arrivals = null;
    if (j.get("arrivals") != null) {
      if (j.get("every") != null) {
        throw j.get("arrivals").error("use either every (a schedule) or arrivals (jobs per hour), not both");
      }
      arrivals = profile(j.get("arrivals"));
    } else if (!every.isZero() && every.compareTo(MIN_INTERVAL) < 0) {
      throw j.get("every").error("must be 0 (run once) or at least " + GoDuration.format(MIN_INTERVAL));
    }
    Duration runTime = positive(j.required("runTime"));
    Duration timeout = positiveOr(j, "rendezvousTimeout", Duration.ofMinutes(10));
    Duration retry = dur(j, "retryAfter", Duration.ofMinutes(1));
    return new Scenario.GangJob(name, ns, priority, start, every, arrivals, workers, runTime, timeout, retry, podSpec(j));
  }

  private static PodSpec podSpec(YamlValue w) {
    YamlValue pod = w.get("pod");
    YamlValue req = w.get("requests");
    if ((pod == null) == (req == null)) {
      throw w.error("exactly one of pod (a PodSpec) or requests (a resource map) is required");
    }
    if (pod != null) {
      PodSpec spec;
      try {
        spec = Models.fromTree(pod.plain(), PodSpec.class);
      } catch (RuntimeException e) {
        throw pod.error("not a valid PodSpec: " + firstLine(e.getMessage()));
      }
      if (spec.getContainers() == null || spec.getContainers().isEmpty()) {
        throw pod.error("a PodSpec needs at least one container");
      }
      return spec;
    }
    return requestsPod(resources(req));
  }

  /** A single pause container requesting the given resources. */
  public static PodSpec requestsPod(Map<String, Quantity> requests) {
    return new PodSpecBuilder()
        .withContainers(new ContainerBuilder().withName("app").withImage(PAUSE_IMAGE)
            .withNewResources().withRequests(new TreeMap<>(requests)).endResources().build())
        .build();
  }

  private static Map<String, Quantity> resources(YamlValue v) {
    Map<String, Quantity> out = new TreeMap<>();
    for (Map.Entry<String, YamlValue> e : v.entries().entrySet()) {
      String text = e.getValue().plain() == null ? "" : String.valueOf(e.getValue().plain());
      if (!Quantities.isValid(text)) {
        throw e.getValue().error("not a Kubernetes quantity: \"" + text + "\"");
      }
      out.put(e.getKey(), new Quantity(text));
    }
    if (out.isEmpty()) {
      throw v.error("at least one resource is required");
    }
    return out;
  }

  private LoadProfile profile(YamlValue p) {
    String type = p.required("type").string();
    switch (type) {
      case "constant" -> {
        p.allowOnly(Set.of("type", "rate"));
        return new LoadProfile.Constant(p.required("rate").nonNegative());
      }
      case "step" -> {
        p.allowOnly(Set.of("type", "rate", "steps"));
        List<LoadProfile.Point> steps = new ArrayList<>();
        double last = -1;
        for (YamlValue s : p.required("steps").list()) {
          s.allowOnly(Set.of("at", "rate"));
          double at = s.required("at").duration().toMillis() / 1000.0;
          if (at < last) {
            throw s.get("at").error("steps must be in time order");
          }
          last = at;
          steps.add(new LoadProfile.Point(at, s.required("rate").nonNegative()));
        }
        return new LoadProfile.Step(p.required("rate").nonNegative(), steps);
      }
      case "spikes" -> {
        p.allowOnly(Set.of("type", "base", "spikes"));
        return new LoadProfile.Spikes(p.required("base").nonNegative(), spikes(p.required("spikes")));
      }
      case "diurnal" -> {
        p.allowOnly(Set.of("type", "min", "max", "peakAt", "period", "spikes"));
        double min = p.required("min").nonNegative();
        double max = p.required("max").nonNegative();
        if (max < min) {
          throw p.get("max").error("must be >= min");
        }
        Duration peak = dur(p, "peakAt", Duration.ofHours(14));
        Duration period = positiveOr(p, "period", Duration.ofDays(1));
        return new LoadProfile.Diurnal(min, max, peak.toMillis() / 1000.0, period.toMillis() / 1000.0,
            p.get("spikes") == null ? List.of() : spikes(p.get("spikes")));
      }
      case "trace" -> {
        p.allowOnly(Set.of("type", "file", "scale"));
        double scale = p.get("scale") == null ? 1.0 : p.get("scale").nonNegative();
        return trace(p.required("file"), scale);
      }
      case "prometheus" -> {
        p.allowOnly(Set.of("type", "file", "series", "scale"));
        double scale = p.get("scale") == null ? 1.0 : p.get("scale").nonNegative();
        Map<String, String> selector = new TreeMap<>();
        if (p.get("series") != null) {
          for (Map.Entry<String, YamlValue> e : p.get("series").entries().entrySet()) {
            selector.put(e.getKey(), e.getValue().string());
          }
        }
        YamlValue file = p.required("file");
        return PrometheusRange.parse(file.string(), read(file, "Prometheus range file"), selector, scale);
      }
      default -> throw p.get("type").error("unknown load profile type \"" + type
          + "\" (use constant, step, spikes, diurnal, trace or prometheus)");
    }
  }

  private static List<LoadProfile.Spike> spikes(YamlValue list) {
    List<LoadProfile.Spike> spikes = new ArrayList<>();
    for (YamlValue s : list.list()) {
      s.allowOnly(Set.of("at", "duration", "rate", "ramp"));
      Duration ramp = dur(s, "ramp", Duration.ZERO);
      Duration len = positive(s.required("duration"));
      if (ramp.multipliedBy(2).compareTo(len) > 0) {
        throw s.get("ramp").error("twice the ramp must fit in the spike's duration");
      }
      spikes.add(new LoadProfile.Spike(s.required("at").duration().toMillis() / 1000.0, len.toMillis() / 1000.0,
          s.required("rate").nonNegative(), ramp.toMillis() / 1000.0));
    }
    return spikes;
  }

  private String read(YamlValue fileValue, String what) {
    String name = fileValue.string();
    Path path = baseDir == null ? Path.of(name) : baseDir.resolve(name);
    try {
      return Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw fileValue.error("cannot read " + what + " " + name + ": " + e.getMessage());
    }
  }

  private LoadProfile trace(YamlValue fileValue, double scale) {
    String name = fileValue.string();
    Path path = baseDir == null ? Path.of(name) : baseDir.resolve(name);
    if (Files.isDirectory(path)) {
      throw fileValue.error("cannot read trace file " + name + ": is a directory");
    }
    try (java.io.InputStream in = Files.newInputStream(path)) {
      return TraceCsv.parse(name, new java.io.BufferedReader(InputText.utf8Reader(in), 1 << 16), scale);
    } catch (IOException e) {
      throw fileValue.error("cannot read trace file " + name + ": " + InputText.whyUnreadable(e));
    } catch (TextInputException e) {
      throw new ScenarioException(name, Math.max(1, e.line()), e.getMessage());
    }
  }

  private Scenario.Autoscaling autoscaling(YamlValue a, int replicas) {
    if (a == null) {
      return new Scenario.Fixed();
    }
    String type = a.required("type").string();
    switch (type) {
      case "none" -> {
        a.allowOnly(Set.of("type"));
        return new Scenario.Fixed();
      }
      case "hpa" -> {
        a.allowOnly(Set.of("type", "minReplicas", "maxReplicas", "metrics", "syncPeriod", "scaleDownStabilization",
            "tolerance"));
        int min = a.get("minReplicas") == null ? 1 : a.get("minReplicas").intValue(0, 100_000);
        int max = a.required("maxReplicas").intValue(1, 100_000);
        if (max < min) {
          throw a.get("maxReplicas").error("must be >= minReplicas");
        }
        double tol = a.get("tolerance") == null ? 0.1 : a.get("tolerance").nonNegative();
        List<Scenario.MetricTarget> hpaMetrics = metrics(a.required("metrics"));
        if (min == 0 && hpaMetrics.stream().noneMatch(m -> m.metric() == Scenario.MetricName.QUEUE)) {
          throw a.get("minReplicas").error("minReplicas 0 needs a queue metric (the HPA scales to zero only on Object or"
              + " External metrics)");
        }
        return new Scenario.Hpa(min, max, hpaMetrics, interval(a, "syncPeriod", Duration.ofSeconds(15)),
            dur(a, "scaleDownStabilization", Duration.ofMinutes(5)), tol);
      }
      case "keda" -> {
        a.allowOnly(Set.of("type", "minReplicaCount", "maxReplicaCount", "pollingInterval", "cooldownPeriod",
            "metrics", "activationThreshold"));
        int min = a.get("minReplicaCount") == null ? 0 : a.get("minReplicaCount").intValue(0, 100_000);
        int max = a.get("maxReplicaCount") == null ? 100 : a.get("maxReplicaCount").intValue(1, 100_000);
        if (max < min) {
          throw a.get("maxReplicaCount").error("must be >= minReplicaCount");
        }
        double act = a.get("activationThreshold") == null ? 0 : a.get("activationThreshold").nonNegative();
        return new Scenario.Keda(min, max, interval(a, "pollingInterval", Duration.ofSeconds(30)),
            dur(a, "cooldownPeriod", Duration.ofMinutes(5)), metrics(a.required("metrics")), act);
      }
      default -> throw a.get("type").error("unknown autoscaling type \"" + type + "\" (use hpa, keda or none)");
    }
  }

  private static List<Scenario.MetricTarget> metrics(YamlValue list) {
    List<Scenario.MetricTarget> out = new ArrayList<>();
    for (YamlValue m : list.list()) {
      m.allowOnly(Set.of("metric", "target"));
      String metric = m.required("metric").string();
      Scenario.MetricName n = switch (metric) {
        case "cpu" -> Scenario.MetricName.CPU;
        case "queue" -> Scenario.MetricName.QUEUE;
        default -> throw m.get("metric").error("unknown metric \"" + metric + "\" (use cpu or queue)");
      };
      double target = n == Scenario.MetricName.CPU ? m.required("target").percentage() : m.required("target").number();
      if (target <= 0) {
        throw m.get("target").error("must be > 0");
      }
      out.add(new Scenario.MetricTarget(n, target));
    }
    if (out.isEmpty()) {
      throw list.error("at least one metric is required");
    }
    return out;
  }

  private Scenario.Strategy strategy(YamlValue s, List<Scenario.Workload> workloads, List<Scenario.GangJob> gangJobs,
      List<NodeGroup> groups) {
    String type = s.required("type").string();
    switch (type) {
      case "none" -> {
        s.allowOnly(Set.of("type", "name"));
        return new Scenario.NoBuffer(nameOr(s, "none"));
      }
      case "balloon" -> {
        s.allowOnly(Set.of("type", "name", "replicas", "priority", "namespace", "workload", "pod", "requests"));
        int replicas = s.required("replicas").intValue(0, 100_000);
        int priority = s.get("priority") == null ? FAQ_BALLOON_PRIORITY : s.get("priority").intValue(-1_000_000_000, 1_000_000_000);
        String ns = s.get("namespace") == null ? "default" : dnsName(s.get("namespace"));
        PodSpec pod;
        if (s.get("pod") != null || s.get("requests") != null) {
          pod = podSpec(s);
        } else {
          YamlValue w = s.get("workload");
          Scenario.Workload target = w == null ? (workloads.isEmpty() ? null : workloads.get(0)) : findWorkload(w, workloads);
          if (target == null) {
            throw s.error("a balloon needs workload:, pod: or requests: to size its pods");
          }
          pod = requestsPod(podRequests(target.pod()));
        }
        return new Scenario.Balloon(nameOr(s, "balloon"), replicas, priority, ns, pod);
      }
      case "buffer" -> {
        s.allowOnly(Set.of("type", "name", "buffers"));
        List<Scenario.BufferDef> defs = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (YamlValue b : s.required("buffers").list()) {
          Scenario.BufferDef def = buffer(b, workloads, gangJobs, groups);
          if (!names.add(def.namespace() + "/" + def.name())) {
            throw b.get("name").error("duplicate buffer \"" + def.name() + "\"");
          }
          defs.add(def);
        }
        if (defs.isEmpty()) {
          throw s.get("buffers").error("at least one buffer is required");
        }
        return new Scenario.Buffers(nameOr(s, bufferStrategyName(defs)), defs);
      }
      case "warm-pool" -> {
        s.allowOnly(Set.of("type", "name", "nodeGroup", "size", "stoppedPriceFraction", "resumeDelay"));
        String group = s.required("nodeGroup").string();
        if (groups.stream().noneMatch(g -> g.id().equals(group))) {
          throw s.get("nodeGroup").error("no node group named \"" + group + "\"");
        }
        int size = s.required("size").intValue(0, 100_000);
        double fraction = s.get("stoppedPriceFraction") == null ? 0.1 : s.get("stoppedPriceFraction").nonNegative();
        if (fraction > 1) {
          throw s.get("stoppedPriceFraction").error("must be between 0 and 1");
        }
        Duration resume = dur(s, "resumeDelay", Duration.ofSeconds(20));
        return new Scenario.WarmPool(nameOr(s, "warm-pool"), group, size, fraction, resume);
      }
      default -> throw s.get("type").error("unknown strategy type \"" + type
          + "\" (use none, balloon, buffer or warm-pool)");
    }
  }

  /** The default name of a buffer strategy: {@code buffer-10pct}, {@code buffer-3} or {@code buffer}. */
  public static String bufferStrategyName(List<Scenario.BufferDef> defs) {
    if (defs.size() == 1) {
      CapacityBufferSpec spec = defs.get(0).spec();
      if (spec.getPercentage() != null && spec.getReplicas() == null) {
        return "buffer-" + spec.getPercentage() + "pct";
      }
      if (spec.getPercentage() == null && spec.getReplicas() != null) {
        return "buffer-" + spec.getReplicas();
      }
      if (spec.getPercentage() != null) {
        return "buffer-" + spec.getPercentage() + "pct-min" + spec.getReplicas();
      }
    }
    return "buffer";
  }

  private static Scenario.BufferDef buffer(YamlValue b, List<Scenario.Workload> workloads,
      List<Scenario.GangJob> gangJobs, List<NodeGroup> groups) {
    b.allowOnly(Set.of("name", "namespace", "workload", "gangJob", "replicas", "percentage", "limits",
        "provisioningStrategy", "activeSchedule", "gang", "gangTopologyKey", "consumerSelector", "refillStrategy", "fillDeadline",
        "scale"));
    if ((b.get("workload") == null) == (b.get("gangJob") == null)) {
      throw b.error("a buffer needs exactly one of workload (a Deployment's pods) or gangJob (a gang job's workers)");
    }
    CapacityBufferSpec spec = new CapacityBufferSpec();
    String name;
    String namespace;
    PodTemplate template = null;
    if (b.get("workload") != null) {
      Scenario.Workload target = findWorkload(b.get("workload"), workloads);
      name = b.get("name") == null ? target.name() + "-buffer" : dnsName(b.get("name"));
      namespace = target.namespace();
      spec.setScalableRef(new ScalableRef("apps", "Deployment", target.name()));
    } else {
      YamlValue ref = b.get("gangJob");
      Scenario.GangJob job = gangJobs.stream().filter(x -> x.name().equals(ref.string())).findFirst()
          .orElseThrow(() -> ref.error("no gang job named \"" + ref.string() + "\""));
      name = b.get("name") == null ? job.name() + "-buffer" : dnsName(b.get("name"));
      namespace = job.namespace();
      // a PodTemplate of one worker, which the buffer's spec.podTemplateRef names
      template = new PodTemplateBuilder().withNewMetadata().withName(name + "-worker").withNamespace(namespace)
          .endMetadata().withNewTemplate().withNewMetadata().addToLabels("app", job.name()).endMetadata()
          .withSpec(job.pod()).endTemplate().build();
      spec.setPodTemplateRef(new LocalObjectRef(template.getMetadata().getName()));
      if (b.get("percentage") != null) {
        throw b.get("percentage").error("a buffer on a gang job's workers has no workload to take a percentage of"
            + " (use replicas)");
      }
    }
    if (b.get("replicas") != null) {
      spec.setReplicas(b.get("replicas").intValue(0, 1_000_000));
    }
    if (b.get("percentage") != null) {
      double pct = b.get("percentage").percentage();
      if (pct != Math.rint(pct)) {
        throw b.get("percentage").error("must be a whole percentage");
      }
      if (pct > Integer.MAX_VALUE) {
        throw b.get("percentage").error("must be at most " + Integer.MAX_VALUE + " (an int32, as in the CapacityBuffer API)");
      }
      spec.setPercentage((int) pct);
    }
    if (spec.getReplicas() == null && spec.getPercentage() == null) {
      throw b.error(template == null ? "a buffer needs replicas, percentage or both" : "a buffer needs replicas");
    }
    if (b.get("limits") != null) {
      spec.setLimits(resources(b.get("limits")));
    }
    if (b.get("provisioningStrategy") != null) {
      YamlValue v = b.get("provisioningStrategy");
      String strategy = v.string();
      if (!PROVISIONING_STRATEGIES.contains(strategy)) {
        throw v.error("unknown provisioningStrategy \"" + strategy + "\" (use " + BufferConditions.STRATEGY_ACTIVE_CAPACITY
            + " or " + BufferConditions.STRATEGY_STANDBY_CAPACITY + ")");
      }
      if (strategy.equals(BufferConditions.STRATEGY_STANDBY_CAPACITY) && groups.stream().noneMatch(g -> g.standby() != null)) {
        throw v.error("a buffer of the " + strategy + " strategy needs a node group with spec.standby"
            + " (its chunks are kept on that group's standby nodes)");
      }
      spec.setProvisioningStrategy(strategy);
    }
    String schedule = null;
    if (b.get("activeSchedule") != null) {
      schedule = b.get("activeSchedule").string();
      try {
        dev.headroom.core.buffer.ActiveSchedule.parse(schedule);
      } catch (IllegalArgumentException e) {
        throw b.get("activeSchedule").error(e.getMessage());
      }
    }
    Map<String, String> annotations = new TreeMap<>();
    boolean gang = b.get("gang") != null && b.get("gang").bool();
    if (gang) {
      annotations.put(PodGroups.GANG_ANNOTATION, "true");
    }
    if (b.get("gangTopologyKey") != null) {
      if (!gang) {
        throw b.get("gangTopologyKey").error("gangTopologyKey needs gang: true");
      }
      String key = b.get("gangTopologyKey").string().strip();
      if (key.isEmpty()) {
        throw b.get("gangTopologyKey").error("must be a node label key such as topology.kubernetes.io/zone");
      }
      annotations.put(PodGroups.GANG_TOPOLOGY_KEY_ANNOTATION, key);
    }
    consumption(b, annotations);
    return new Scenario.BufferDef(name, namespace, spec, schedule, annotations, template, scaleSteps(b.get("scale")));
  }

  /**
   * {@code scale}: writes of the buffer's {@code /scale} subresource, {@code [{at: 8h, replicas: 14}, ...]}, at
   * strictly increasing times; each sets {@code spec.replicas} as {@code kubectl scale} does.
   */
  private static List<Scenario.ScaleStep> scaleSteps(YamlValue v) {
    if (v == null) {
      return List.of();
    }
    List<Scenario.ScaleStep> steps = new ArrayList<>();
    Duration last = null;
    for (YamlValue s : v.list()) {
      s.allowOnly(Set.of("at", "replicas"));
      Duration at = s.required("at").duration();
      if (last != null && at.compareTo(last) <= 0) {
        throw s.get("at").error("scale writes must be in time order: " + GoDuration.format(at) + " is not after "
            + GoDuration.format(last));
      }
      last = at;
      steps.add(new Scenario.ScaleStep(at, s.required("replicas").intValue(0, 1_000_000)));
    }
    if (steps.isEmpty()) {
      throw v.error("scale needs at least one {at, replicas} write");
    }
    return steps;
  }

  /**
   * {@code consumerSelector}, {@code refillStrategy} and {@code fillDeadline} (a duration) as the buffer's consumption
   * annotations, checked by core's own reading of them ({@link BufferConsumption#settings}).
   */
  private static void consumption(YamlValue b, Map<String, String> annotations) {
    if (b.get("consumerSelector") != null) {
      annotations.put(BufferConsumption.ANNOTATION_CONSUMER_SELECTOR, b.get("consumerSelector").string());
    }
    if (b.get("refillStrategy") != null) {
      annotations.put(BufferConsumption.ANNOTATION_REFILL_STRATEGY, b.get("refillStrategy").string());
    }
    if (b.get("fillDeadline") != null) {
      Duration d = b.get("fillDeadline").duration();
      if (d.isZero() || d.isNegative() || d.toSeconds() * 1000 != d.toMillis()) {
        throw b.get("fillDeadline").error("must be a positive whole number of seconds, such as 30m");
      }
      annotations.put(BufferConsumption.ANNOTATION_FILL_DEADLINE_SECONDS, Long.toString(d.toSeconds()));
    }
    CapacityBuffer probe = new CapacityBuffer();
    probe.getMetadata().setAnnotations(annotations);
    try {
      BufferConsumption.settings(probe);
    } catch (IllegalArgumentException e) {
      String m = e.getMessage();
      String key = m.startsWith(BufferConsumption.ANNOTATION_FILL_DEADLINE_SECONDS) ? "fillDeadline"
          : m.startsWith(BufferConsumption.ANNOTATION_REFILL_STRATEGY) ? "refillStrategy" : "consumerSelector";
      throw (b.get(key) != null ? b.get(key) : b).error(m);
    }
  }

  private static Scenario.Workload findWorkload(YamlValue ref, List<Scenario.Workload> workloads) {
    String n = ref.string();
    return workloads.stream().filter(x -> x.name().equals(n)).findFirst()
        .orElseThrow(() -> ref.error("no workload named \"" + n + "\""));
  }

  /** The requests of a pod spec's containers (used to size balloons like the workload's pods). */
  private static Map<String, Quantity> podRequests(PodSpec spec) {
    Map<String, Quantity> out = new TreeMap<>();
    Map<String, Long> eff = dev.headroom.core.resources.EffectiveRequests.of(spec);
    for (Map.Entry<String, Long> e : eff.entrySet()) {
      if (e.getValue() > 0 && (e.getKey().equals("cpu") || e.getKey().equals("memory"))) {
        out.put(e.getKey(), new Quantity(Quantities.format(e.getKey(), e.getValue())));
      }
    }
    return out;
  }

  private static String nameOr(YamlValue s, String def) {
    return s.get("name") == null ? def : dnsName(s.get("name"));
  }

  private static String dnsName(YamlValue v) {
    String n = v.string();
    if (n.length() > 63 || !NAME.matcher(n).matches()) {
      throw v.error("\"" + n + "\" must be a DNS-1123 label (lower-case letters, digits and '-')");
    }
    return n;
  }

  private static Duration dur(YamlValue parent, String key, Duration def) {
    return parent == null || parent.get(key) == null ? def : parent.get(key).duration();
  }

  private static Duration positiveOr(YamlValue parent, String key, Duration def) {
    return parent == null || parent.get(key) == null ? def : positive(parent.get(key));
  }

  private static Duration interval(YamlValue parent, String key, Duration def) {
    Duration d = dur(parent, key, def);
    if (d.compareTo(MIN_INTERVAL) < 0) {
      throw parent.get(key).error("must be at least " + GoDuration.format(MIN_INTERVAL));
    }
    return d;
  }

  private static Duration positive(YamlValue v) {
    Duration d = v.duration();
    if (d.isZero()) {
      throw v.error("must be longer than 0");
    }
    return d;
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  @SuppressWarnings("unused")
  private static Map<String, Object> ordered(Map<String, Object> m) {
    return new LinkedHashMap<>(m);
  }
}
