package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestStatus;
import dev.headroom.core.autoscaler.ClusterView;
import dev.headroom.core.autoscaler.IterationResult;
import dev.headroom.core.autoscaler.Nodes;
import dev.headroom.core.autoscaler.PodGroups;
import dev.headroom.core.autoscaler.SchedulingSimulation;
import dev.headroom.core.buffer.StatusConditions;
import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * ProvisioningRequests in the autoscaler loop, as the Cluster Autoscaler handles them (kubernetes/autoscaler
 * {@code cluster-autoscaler/processors/provreq/} and {@code provisioningrequest/}). One {@link #begin} before an
 * {@code Autoscaler.runOnce}, over the loop's {@link ClusterView}:
 * <ol>
 *   <li>expiry ({@link RequestLifecycle#refresh}): bookings past their reservation, requests never provisioned;
 *   <li>booking: each provisioned request (not Failed, not BookingExpired) whose pods have not all been scheduled
 *       holds capacity for all its pods: they are placed first-fit on the existing nodes and appear in the round's view
 *       as bound pods, so neither pending pods, buffers nor scale-down take that capacity; once as many pods consuming
 *       it are scheduled as it asked for, {@code BookingExpired=True CapacityBookingConsumed}; pods that cannot be
 *       made, {@code Failed=True FailedToBookCapacity};
 *   <li>pending pods annotated as consuming a request are left out of the view (they trigger no scale-up; CA's
 *       {@code ProvisioningRequestPodsFilter});
 *   <li>one request is taken up (the oldest supported one the {@link RequestBackoff} lets through; pods that cannot be
 *       made fail it with {@code FailedToCreatePods} and the next is tried), {@code Accepted=True}, and decided by its
 *       class: check-capacity places all its pods on existing capacity or none ({@code Provisioned=True CapacityIsFound},
 *       else {@code Provisioned=False CapacityIsNotFound}, or {@code Failed=True} with {@code noRetry}); best-effort-atomic
 *       is {@code CapacityIsFound} when all fit, and otherwise its pods enter the view as pending pods of one
 *       {@link PodGroups} group of minMember = all of them, so the loop's all-or-nothing scale-up decides, and
 *       {@link Round#finish} turns the group's outcome into {@code Provisioned=True CapacityIsProvisioned} or
 *       {@code Provisioned=False CapacityIsNotFound}.
 * </ol>
 * Holds the backoff between loops; everything else is recomputed from the view each loop.
 */
public final class ProvisioningRequests {

  /** What the component is configured with: CA's check-capacity processor instance and the retry backoff. */
  public record Settings(String processorInstance, Duration initialBackoff, Duration maxBackoff) {
    /** CA's defaults: no instance, 1m initial, 10m maximum backoff. */
    public static final Settings DEFAULTS = new Settings("", Duration.ofMinutes(1), Duration.ofMinutes(10));
  }

  /** What happened to one request in a round. */
  public enum Action {
    /** Not a class this autoscaler handles. */
    UNSUPPORTED,
    /** Failed or BookingExpired: nothing more is done. */
    DONE,
    /** Provisioned: capacity is held for its pods ({@code detail}: how many placed). */
    BOOKED,
    /** Provisioned=False and still in its retry backoff. */
    BACKED_OFF,
    /** Available, but another request was taken up in this loop (one per loop). */
    WAITING,
    /** Taken up and decided: check-capacity's answer, or best-effort-atomic fitting existing capacity. */
    DECIDED,
    /** Taken up (best-effort-atomic): its pods are scaled up for all-or-nothing in this loop. */
    SCALING_UP,
    /** Its pods could not be made. */
    INVALID
  }

  /** One request's part in a round, with the conditions it got (none when unchanged). */
  public record Decision(String key, String className, Action action, String detail, List<Condition> changed) {}

  private final Settings settings;
  private final Supplier<SchedulingSimulation> simulations;
  private final RequestBackoff backoff;

  public ProvisioningRequests(Settings settings, Supplier<SchedulingSimulation> simulations) {
    this.settings = settings;
    this.simulations = simulations;
    this.backoff = new RequestBackoff(settings.initialBackoff(), settings.maxBackoff());
  }

  /** Starts the round of {@code now} over {@code cluster}; run the autoscaler over {@link Round#view()}. */
  public Round begin(ClusterView cluster, Instant now) {
    return new Round(cluster, now);
  }

  /**
   * A long-lived driver for an autoscaler built once over {@link Loop#view()} (the cluster runtime's): each
   * {@link Loop#runOnce} begins a round over {@code cluster}, runs the iteration over the round's view and finishes
   * the round through {@code writer}.
   */
  public Loop loop(ClusterView cluster, ProvisioningRequestStatusWriter writer) {
    return new Loop(cluster, writer);
  }

  /** See {@link #loop}. */
  public final class Loop {
    private final ClusterView cluster;
    private final ProvisioningRequestStatusWriter writer;
    private volatile ClusterView current;
    /** Whether the last round had requests: the pod change log is passed through only between rounds without any. */
    private volatile boolean hadRequests = true;
    private final ClusterView view;

    Loop(ClusterView cluster, ProvisioningRequestStatusWriter writer) {
      this.cluster = cluster;
      this.writer = writer;
      this.current = cluster;
      this.view = new Delegating();
    }

    /** The view to build the autoscaler over: the current round's. */
    public ClusterView view() {
      return view;
    }

    /** One iteration of {@code autoscaler} (built over {@link #view()}) at {@code now}, with its round. */
    public IterationResult runOnce(java.util.function.Function<Instant, IterationResult> autoscaler, Instant now) {
      Round round = begin(cluster, now);
      boolean any = !round.current.isEmpty();
      boolean passChanges = !any && !hadRequests;
      hadRequests = any;
      current = passChanges ? new ChangesPassed(round.view()) : round.view();
      IterationResult r = autoscaler.apply(now);
      round.finish(r, writer);
      return r;
    }

    /** The round's view, with the cluster's pod change log, filtered as the view's pods are. */
    private final class ChangesPassed extends Forwarding {
      ChangesPassed(ClusterView v) {
        super(v);
      }

      @Override
      public Optional<PodChanges> podChangesSince(long cursor) {
        return cluster.podChangesSince(cursor).map(c -> {
          List<Pod> changed = new ArrayList<>();
          List<String> deleted = new ArrayList<>(c.deleted());
          for (Pod p : c.changed()) {
            if (pendingConsumer(p)) {
              deleted.add(p.getMetadata().getUid());
            } else {
              changed.add(p);
            }
          }
          return new PodChanges(c.cursor(), changed, deleted);
        });
      }
    }

    private final class Delegating extends Forwarding {
      Delegating() {
        super(null);
      }

      @Override
      ClusterView target() {
        return current;
      }
    }
  }

  /** A view forwarding every read to {@link #target()}. */
  private static class Forwarding implements ClusterView {
    private final ClusterView v;

    Forwarding(ClusterView v) {
      this.v = v;
    }

    ClusterView target() {
      return v;
    }

    @Override public List<Node> nodes() { return target().nodes(); }
    @Override public List<Pod> pods() { return target().pods(); }
    @Override public Optional<PodChanges> podChangesSince(long cursor) { return target().podChangesSince(cursor); }
    @Override public List<PodDisruptionBudget> podDisruptionBudgets() { return target().podDisruptionBudgets(); }
    @Override public PodGroups podGroups() { return target().podGroups(); }
    @Override public List<ProvisioningRequest> provisioningRequests() { return target().provisioningRequests(); }
    @Override public List<CapacityBuffer> buffers() { return target().buffers(); }
    @Override public Optional<PodTemplate> podTemplate(String namespace, String name) { return target().podTemplate(namespace, name); }
  }

  /** A pending pod that consumes a request: no demand of its own (CA's {@code ProvisioningRequestPodsFilter}). */
  static boolean pendingConsumer(Pod p) {
    boolean pending = p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty();
    return pending && RequestPods.consumedRequest(p).isPresent();
  }

  /** The requests in the order they are taken up: oldest first, then namespace and name. */
  static List<ProvisioningRequest> ordered(List<ProvisioningRequest> requests) {
    List<ProvisioningRequest> out = new ArrayList<>(requests);
    out.sort(Comparator.comparing((ProvisioningRequest r) -> Nodes.time(r.getMetadata().getCreationTimestamp()).orElse(Instant.MIN))
        .thenComparing(RequestPods::key));
    return out;
  }

  /** One loop's ProvisioningRequest processing. */
  public final class Round {
    private final ClusterView cluster;
    private final Instant now;
    /** Current (working) request objects, by key, in processing order. */
    private final Map<String, ProvisioningRequest> current = new LinkedHashMap<>();
    private final Map<String, List<Condition>> changed = new LinkedHashMap<>();
    private final Map<String, Decision> decisions = new LinkedHashMap<>();
    private final List<Pod> booked = new ArrayList<>();
    private final List<Pod> injected = new ArrayList<>();
    private PodGroups.Group group;
    private final List<ProvisioningRequest> toDelete;
    private final View view;

    Round(ClusterView cluster, Instant now) {
      this.cluster = cluster;
      this.now = now;
      List<ProvisioningRequest> requests = ordered(cluster.provisioningRequests());
      for (ProvisioningRequest pr : requests) {
        current.put(RequestPods.key(pr), pr);
      }
      this.toDelete = RequestLifecycle.toDelete(requests, now);
      for (StatusUpdate u : RequestLifecycle.refresh(requests, settings.processorInstance(), now, RequestLifecycle.MAX_UPDATED)) {
        apply(u);
      }
      if (!requests.isEmpty()) {
        // the simulation of the existing nodes is built only when a round has requests
        SchedulingSimulation sim = load();
        book(sim);
        takeUp(sim);
      }
      this.view = new View();
    }

    /** The view the autoscaler runs over in this loop. */
    public ClusterView view() {
      return view;
    }

    /** The requests to delete (terminal for longer than {@link RequestLifecycle#TERMINAL_TTL}). */
    public List<ProvisioningRequest> toDelete() {
      return toDelete;
    }

    /** The pods holding booked capacity, bound to the nodes they were placed on. */
    public List<Pod> booked() {
      return List.copyOf(booked);
    }

    /** The pods of the request being scaled up for (best-effort-atomic), pending. */
    public List<Pod> injected() {
      return List.copyOf(injected);
    }

    /**
     * Ends the round with the loop's result: the best-effort-atomic request's outcome. Returns every request's
     * decision, in processing order, and writes the changed conditions through {@code writer}.
     */
    public List<Decision> finish(IterationResult result, ProvisioningRequestStatusWriter writer) {
      if (group != null) {
        PodGroups.Key k = group.key();
        String key = k.namespace() + "/" + k.name();
        Optional<IterationResult.PodGroupOutcome> outcome = result == null ? Optional.empty() : result.podGroups().stream()
            .filter(o -> o.source().equals(PodGroups.Source.PROVISIONING_REQUEST.text()) && o.namespace().equals(k.namespace())
                && o.name().equals(k.name()))
            .findFirst();
        if (outcome.isPresent()) {
          IterationResult.PodGroupOutcome o = outcome.get();
          ProvisioningRequest pr = current.get(key);
          switch (o.status()) {
            case IterationResult.PodGroupOutcome.SCALED_UP -> update(pr, ProvisioningConditions.PROVISIONED, ProvisioningConditions.TRUE,
                ProvisioningConditions.CAPACITY_IS_PROVISIONED_REASON, ProvisioningConditions.CAPACITY_IS_PROVISIONED_MSG);
            case IterationResult.PodGroupOutcome.FITS -> update(pr, ProvisioningConditions.PROVISIONED, ProvisioningConditions.TRUE,
                ProvisioningConditions.CAPACITY_IS_FOUND_REASON, ProvisioningConditions.CAPACITY_IS_FOUND_MSG);
            default -> update(pr, ProvisioningConditions.PROVISIONED, ProvisioningConditions.FALSE,
                ProvisioningConditions.CAPACITY_IS_NOT_FOUND_REASON, ProvisioningConditions.NOT_FOUND_RETRY_MSG);
          }
          Decision d = decisions.get(key);
          decisions.put(key, new Decision(key, d.className(), Action.SCALING_UP,
              o.status() + (o.limit() == null || o.limit().isEmpty() ? "" : ": " + o.limit()), d.changed()));
        }
      }
      for (Map.Entry<String, List<Condition>> e : changed.entrySet()) {
        writer.writeConditions(current.get(e.getKey()), ProvisioningConditions.conditions(current.get(e.getKey())));
      }
      List<Decision> out = new ArrayList<>();
      for (String key : current.keySet()) {
        Decision d = decisions.get(key);
        List<Condition> c = changed.getOrDefault(key, List.of());
        out.add(d == null ? new Decision(key, ProvisioningClasses.className(current.get(key)), Action.DONE, "", c)
            : new Decision(key, d.className(), d.action(), d.detail(), c));
      }
      return out;
    }

    // --- the steps

    private SchedulingSimulation load() {
      SchedulingSimulation sim = simulations.get();
      Set<String> nodes = new HashSet<>();
      for (Node n : cluster.nodes()) {
        sim.addNode(n);
        nodes.add(n.getMetadata().getName());
      }
      for (Pod p : cluster.pods()) {
        String node = p.getSpec() == null ? null : p.getSpec().getNodeName();
        String phase = p.getStatus() == null ? null : p.getStatus().getPhase();
        if (node != null && nodes.contains(node) && !"Succeeded".equals(phase) && !"Failed".equals(phase)) {
          sim.addPod(p, node);
        }
      }
      return sim;
    }

    private void book(SchedulingSimulation sim) {
      Map<String, Integer> scheduled = new HashMap<>();
      for (Pod p : cluster.pods()) {
        if (p.getSpec() != null && p.getSpec().getNodeName() != null && !p.getSpec().getNodeName().isEmpty()) {
          RequestPods.consumedRequest(p).ifPresent(k -> scheduled.merge(k, 1, Integer::sum));
        }
      }
      List<Pod> toBook = new ArrayList<>();
      for (ProvisioningRequest pr : List.copyOf(current.values())) {
        String key = RequestPods.key(pr);
        if (!ProvisioningClasses.supported(pr, settings.processorInstance())) {
          decide(pr, Action.UNSUPPORTED, "not handled by this autoscaler (class "
              + ProvisioningClasses.className(pr) + (settings.processorInstance().isEmpty() ? "" : ", processor instance "
              + settings.processorInstance()) + ")");
          continue;
        }
        if (ProvisioningConditions.isTrue(pr, ProvisioningConditions.FAILED)
            || ProvisioningConditions.isTrue(pr, ProvisioningConditions.BOOKING_EXPIRED)) {
          decide(pr, Action.DONE, ProvisioningConditions.isTrue(pr, ProvisioningConditions.FAILED) ? "Failed" : "BookingExpired");
          continue;
        }
        if (!RequestLifecycle.booked(pr, settings.processorInstance())) {
          continue;
        }
        int count = RequestPods.count(pr);
        int arrived = scheduled.getOrDefault(key, 0);
        if (arrived >= count) {
          update(pr, ProvisioningConditions.BOOKING_EXPIRED, ProvisioningConditions.TRUE,
              ProvisioningConditions.CAPACITY_BOOKING_CONSUMED_REASON, ProvisioningConditions.CAPACITY_BOOKING_CONSUMED_MSG);
          decide(current.get(key), Action.DONE, "all " + count + " pods scheduled");
          continue;
        }
        RequestPods.Built built = RequestPods.of(pr, cluster::podTemplate);
        if (!built.ok()) {
          update(pr, ProvisioningConditions.FAILED, ProvisioningConditions.TRUE,
              ProvisioningConditions.FAILED_TO_BOOK_CAPACITY_REASON, ProvisioningConditions.FAILED_TO_BOOK_CAPACITY_MSG_PREFIX + built.error());
          decide(current.get(key), Action.INVALID, built.error());
          continue;
        }
        toBook.addAll(built.pods());
        decide(pr, Action.BOOKED, arrived + " of " + count + " pods scheduled");
      }
      place(sim, toBook);
    }

    /** Places {@code pods} first-fit (what does not fit is not booked, as in CA) and keeps the bound copies. */
    private int place(SchedulingSimulation sim, List<Pod> pods) {
      List<String> nodes = sim.scheduleAll(pods, n -> true);
      int placed = 0;
      for (int i = 0; i < pods.size(); i++) {
        if (nodes.get(i) != null) {
          booked.add(bound(pods.get(i), nodes.get(i)));
          placed++;
        }
      }
      return placed;
    }

    private void takeUp(SchedulingSimulation sim) {
      boolean taken = false;
      for (ProvisioningRequest pr : List.copyOf(current.values())) {
        String key = RequestPods.key(pr);
        if (decisions.containsKey(key)) {
          continue; // unsupported, done, booked, invalid
        }
        if (!backoff.available(pr, now)) {
          decide(pr, Action.BACKED_OFF, "Provisioned=False; retried after the backoff");
          continue;
        }
        if (taken) {
          decide(pr, Action.WAITING, "");
          continue;
        }
        RequestPods.Built built = RequestPods.of(pr, cluster::podTemplate);
        if (!built.ok()) {
          update(pr, ProvisioningConditions.FAILED, ProvisioningConditions.TRUE,
              ProvisioningConditions.FAILED_TO_CREATE_PODS_REASON, built.error());
          decide(current.get(key), Action.INVALID, built.error());
          continue;
        }
        taken = true;
        update(pr, ProvisioningConditions.ACCEPTED, ProvisioningConditions.TRUE, ProvisioningConditions.ACCEPTED_REASON,
            ProvisioningConditions.ACCEPTED_MSG);
        pr = current.get(key);
        List<Pod> pods = built.pods();
        sim.fork();
        List<String> nodes = sim.scheduleAll(pods, n -> true);
        int fit = (int) nodes.stream().filter(n -> n != null).count();
        boolean all = fit == pods.size();
        if (all) {
          sim.commit();
          for (int i = 0; i < pods.size(); i++) {
            booked.add(bound(pods.get(i), nodes.get(i)));
          }
          update(pr, ProvisioningConditions.PROVISIONED, ProvisioningConditions.TRUE,
              ProvisioningConditions.CAPACITY_IS_FOUND_REASON, ProvisioningConditions.CAPACITY_IS_FOUND_MSG);
          decide(current.get(key), Action.DECIDED, "all " + pods.size() + " pods fit existing capacity");
          continue;
        }
        sim.revert();
        if (ProvisioningClasses.supportedCheckCapacity(pr, settings.processorInstance())) {
          if (ProvisioningClasses.noRetry(pr)) {
            update(pr, ProvisioningConditions.FAILED, ProvisioningConditions.TRUE,
                ProvisioningConditions.CAPACITY_IS_NOT_FOUND_REASON, ProvisioningConditions.NOT_FOUND_NO_RETRY_MSG);
          } else {
            update(pr, ProvisioningConditions.PROVISIONED, ProvisioningConditions.FALSE,
                ProvisioningConditions.CAPACITY_IS_NOT_FOUND_REASON, ProvisioningConditions.NOT_FOUND_RETRY_MSG);
          }
          decide(current.get(key), Action.DECIDED, fit + " of " + pods.size() + " pods fit existing capacity");
          continue;
        }
        injected.addAll(pods);
        group = PodGroups.provisioningRequest(RequestPods.namespace(pr), pr.getMetadata().getName(), pods.size());
        decide(current.get(key), Action.SCALING_UP, fit + " of " + pods.size() + " pods fit existing capacity");
      }
    }

    /** The round's view: the cluster with its pending consumers left out and the booked and injected pods in. */
    private final class View implements ClusterView {
      @Override
      public List<Node> nodes() {
        return cluster.nodes();
      }

      @Override
      public List<Pod> pods() {
        List<Pod> out = new ArrayList<>();
        for (Pod p : cluster.pods()) {
          boolean pending = p.getSpec() == null || p.getSpec().getNodeName() == null || p.getSpec().getNodeName().isEmpty();
          if (pending && RequestPods.consumedRequest(p).isPresent()) {
            continue;
          }
          out.add(p);
        }
        out.addAll(booked);
        out.addAll(injected);
        return out;
      }

      @Override
      public List<PodDisruptionBudget> podDisruptionBudgets() {
        return cluster.podDisruptionBudgets();
      }

      @Override
      public PodGroups podGroups() {
        PodGroups declared = cluster.podGroups();
        return group == null ? declared : declared.with(List.of(group));
      }

      @Override
      public List<ProvisioningRequest> provisioningRequests() {
        return List.copyOf(current.values());
      }

      @Override
      public List<CapacityBuffer> buffers() {
        return cluster.buffers();
      }

      @Override
      public Optional<PodTemplate> podTemplate(String namespace, String name) {
        return cluster.podTemplate(namespace, name);
      }
    }

    // --- bookkeeping

    private void apply(StatusUpdate u) {
      String key = u.key();
      ProvisioningRequest pr = current.get(key);
      ProvisioningRequest copy = withConditions(pr, u.conditions());
      current.put(key, copy);
      List<Condition> c = changed.computeIfAbsent(key, k -> new ArrayList<>());
      StatusConditions.find(u.conditions(), u.type()).ifPresent(x -> {
        c.removeIf(y -> y.getType().equals(u.type()));
        c.add(x);
      });
    }

    private void update(ProvisioningRequest pr, String type, String status, String reason, String message) {
      apply(StatusUpdate.of(current.get(RequestPods.key(pr)), type, status, reason, message, now));
    }

    private void decide(ProvisioningRequest pr, Action action, String detail) {
      String key = RequestPods.key(pr);
      decisions.put(key, new Decision(key, ProvisioningClasses.className(pr), action, detail, List.of()));
    }
  }

  static ProvisioningRequest withConditions(ProvisioningRequest pr, List<Condition> conditions) {
    ProvisioningRequest copy = new ProvisioningRequest();
    copy.setMetadata(pr.getMetadata());
    copy.setSpec(pr.getSpec());
    ProvisioningRequestStatus status = new ProvisioningRequestStatus();
    status.setConditions(conditions);
    if (pr.getStatus() != null) {
      status.setProvisioningClassDetails(pr.getStatus().getProvisioningClassDetails());
    }
    copy.setStatus(status);
    return copy;
  }

  static Pod bound(Pod p, String node) {
    Pod b = new PodBuilder(p).editSpec().withNodeName(node).endSpec().editStatus().withPhase("Running")
        .withConditions(List.of()).endStatus().build();
    return b;
  }
}
