package dev.headroom.controller.autoscaling;

import dev.headroom.controller.health.ApiHealth;
import dev.headroom.controller.health.ApiRequest;
import dev.headroom.controller.health.CrdWait;
import dev.headroom.core.autoscaler.PodGroups;
import io.fabric8.kubernetes.api.model.APIGroup;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cluster-wide informers for the PodGroup kinds whose pods core scales for all-or-nothing: the coscheduling plugin's
 * ({@code scheduling.x-k8s.io}) and Volcano's ({@code scheduling.volcano.sh}). Both CRDs are optional: each kind is
 * looked up in API discovery (the group's preferred version serving {@code podgroups}) with the backoff of
 * {@link CrdWait}, one INFO line while it is not served, and watched from the moment it is, without a restart. A
 * cluster without them has no PodGroups and no readiness failure.
 */
public final class PodGroupInformers implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PodGroupInformers.class);
  /** The plural of both PodGroup kinds. */
  public static final String PLURAL = "podgroups";
  /** The group sources read from PodGroup objects. */
  public static final List<PodGroups.Source> SOURCES = List.of(PodGroups.Source.COSCHEDULING, PodGroups.Source.VOLCANO);

  private final KubernetesClient client;
  private final ApiHealth health;
  private final CrdWait.Backoff backoff;
  private final ScheduledExecutorService scheduler;
  private final List<Kind> kinds = new ArrayList<>();
  private volatile boolean closed;

  /** One PodGroup kind: its discovery wait and, once served, its informer. */
  private final class Kind {
    final PodGroups.Source source;
    final String apiGroup;
    final CrdWait wait;
    volatile String version;
    volatile SharedIndexInformer<GenericKubernetesResource> informer;

    Kind(PodGroups.Source source, String apiGroup) {
      this.source = source;
      this.apiGroup = apiGroup;
      this.wait = new CrdWait(PLURAL + "." + apiGroup, false, this::check, backoff, scheduler, this::watch);
    }

    /** Empty when the group's preferred version serves {@code podgroups} (and remembers that version). */
    Optional<String> check() {
      String missing = "the " + source.text() + " PodGroup CRD (" + PLURAL + "." + apiGroup + ") is not installed;"
          + " pods of such PodGroups are not scaled for all-or-nothing until it is";
      try {
        APIGroup g = client.getApiGroup(apiGroup);
        if (g == null || g.getPreferredVersion() == null) {
          return Optional.of(missing);
        }
        String gv = g.getPreferredVersion().getGroupVersion();
        APIResourceList list = client.getApiResources(gv);
        if (list == null || list.getResources() == null || list.getResources().stream().noneMatch(r -> PLURAL.equals(r.getName()))) {
          return Optional.of(missing);
        }
        version = g.getPreferredVersion().getVersion();
        return Optional.empty();
      } catch (KubernetesClientException e) {
        if (e.getCode() == 404) {
          return Optional.of(missing);
        }
        return Optional.of("cannot check whether the API server serves " + PLURAL + "." + apiGroup + ": "
            + (e.getCode() > 0 ? e.getCode() + " " : "") + ApiHealth.oneLine(e) + "; retrying");
      }
    }

    void watch() {
      if (closed) {
        return;
      }
      SharedIndexInformer<GenericKubernetesResource> i = client.genericKubernetesResources(context(apiGroup, version))
          .inAnyNamespace().runnableInformer(0);
      if (health != null) {
        i = health.track(i, new ApiRequest("list", apiGroup, PLURAL, null).qualifiedResource() + ApiHealth.scope(null));
      }
      LOG.info("watching {} PodGroups ({}/{})", source.text(), apiGroup, version);
      informer = i;
      i.start();
    }

    boolean synced() {
      SharedIndexInformer<GenericKubernetesResource> i = informer;
      return wait.checked() && (i == null || i.hasSynced());
    }

    List<PodGroups.Group> groups() {
      SharedIndexInformer<GenericKubernetesResource> i = informer;
      return i == null ? List.of() : PodGroupInformers.groups(source, i.getStore().list());
    }
  }

  /**
   * @param health may be null; with it the informers keep retrying on API errors and report them there
   */
  public PodGroupInformers(KubernetesClient client, ApiHealth health, CrdWait.Backoff backoff) {
    this.client = client;
    this.health = health;
    this.backoff = backoff;
    this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
      Thread t = new Thread(r, "headroom-podgroup-discovery");
      t.setDaemon(true);
      return t;
    });
    for (PodGroups.Source s : SOURCES) {
      kinds.add(new Kind(s, apiGroup(s)));
    }
  }

  /** The API group of a PodGroup source. */
  static String apiGroup(PodGroups.Source s) {
    return switch (s) {
      case COSCHEDULING -> PodGroups.COSCHEDULING_API_GROUP;
      case VOLCANO -> PodGroups.VOLCANO_API_GROUP;
      default -> throw new IllegalArgumentException(s + " is not declared by PodGroup objects");
    };
  }

  static ResourceDefinitionContext context(String apiGroup, String version) {
    return new ResourceDefinitionContext.Builder().withGroup(apiGroup).withVersion(version).withPlural(PLURAL)
        .withKind(PodGroups.POD_GROUP_KIND).withNamespaced(true).build();
  }

  /** Starts the discovery checks (each starts its informer once its kind is served). */
  public void start() {
    kinds.forEach(k -> k.wait.start());
  }

  /**
   * True once each kind has been looked up at least once and every started informer has listed, so the first loop
   * does not miss PodGroups that exist.
   */
  public boolean hasSynced() {
    return kinds.stream().allMatch(Kind::synced);
  }

  /** The PodGroups in the caches now. */
  public PodGroups podGroups() {
    List<PodGroups.Group> all = new ArrayList<>();
    for (Kind k : kinds) {
      all.addAll(k.groups());
    }
    return all.isEmpty() ? PodGroups.NONE : new PodGroups(all);
  }

  /** The sources watched now (tests, diagnostics). */
  public List<PodGroups.Source> watched() {
    return kinds.stream().filter(k -> k.informer != null).map(k -> k.source).toList();
  }

  /** The groups of PodGroup objects of {@code source}; an object without a positive integer minMember is left out. */
  public static List<PodGroups.Group> groups(PodGroups.Source source, List<GenericKubernetesResource> objects) {
    List<PodGroups.Group> out = new ArrayList<>(objects.size());
    for (GenericKubernetesResource o : objects) {
      if (o.getMetadata() == null || o.getMetadata().getName() == null) {
        continue;
      }
      OptionalInt min = PodGroups.minMember(o.getAdditionalProperties().get("spec"));
      if (min.isPresent()) {
        String ns = o.getMetadata().getNamespace() == null ? "default" : o.getMetadata().getNamespace();
        out.add(new PodGroups.Group(new PodGroups.Key(source, ns, o.getMetadata().getName()), min.getAsInt()));
      }
    }
    return out;
  }

  /**
   * A fresh read of both kinds from the API server (for tests that drive iterations step by step): a kind that is
   * not served contributes nothing.
   */
  public static Supplier<PodGroups> fromApi(KubernetesClient client) {
    return () -> {
      List<PodGroups.Group> all = new ArrayList<>();
      for (PodGroups.Source s : SOURCES) {
        String group = apiGroup(s);
        APIGroup g;
        try {
          g = client.getApiGroup(group);
        } catch (KubernetesClientException e) {
          continue;
        }
        if (g == null || g.getPreferredVersion() == null) {
          continue;
        }
        try {
          all.addAll(groups(s, client.genericKubernetesResources(context(group, g.getPreferredVersion().getVersion()))
              .inAnyNamespace().list().getItems()));
        } catch (KubernetesClientException e) {
          if (e.getCode() != 404) {
            throw e;
          }
        }
      }
      return all.isEmpty() ? PodGroups.NONE : new PodGroups(all);
    };
  }

  @Override
  public void close() {
    closed = true;
    scheduler.shutdownNow();
    for (Kind k : kinds) {
      SharedIndexInformer<GenericKubernetesResource> i = k.informer;
      if (i != null) {
        i.close();
      }
    }
  }
}
