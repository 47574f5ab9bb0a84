package dev.headroom.controller.kube;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.metrics.ControllerMetrics;
import dev.headroom.controller.metrics.ReconciliationTracker;
import dev.headroom.controller.testing.ApiServer;
import dev.headroom.core.buffer.ManagedTemplates;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The managed-template store's overlay of its own writes. Issue #28's 20-minute soak found a buffer stuck at
 * "failed to create or update managed pod template: podtemplates ... not found": its template had been written,
 * then deleted by the garbage collector with the buffer, and the buffer re-created under the same name; the overlay
 * kept serving the deleted template (the cache no longer held it), so every reconcile sent an UPDATE that got 404.
 */
class ApiTemplateStoreTest {
  private static final String NS = "shop";
  private final ApiServer api = new ApiServer();
  private final Map<String, PodTemplate> cache = new HashMap<>();
  private final AtomicLong nanos = new AtomicLong();
  private final ApiTemplateStore store = new ApiTemplateStore(api.client("controller"), (ns, name) -> cache.get(ns + "/" + name),
      new ControllerMetrics(Clock.systemUTC(), List::of, new ReconciliationTracker(), () -> 0, () -> 0), nanos::get);

  @AfterEach
  void stop() {
    api.close();
  }

  private static PodTemplate desired(String image) {
    return new PodTemplateBuilder().withNewMetadata().withName("capacitybuffer-b-pod-template").withNamespace(NS).endMetadata()
        .withNewTemplate().withNewSpec().addNewContainer().withName("c").withImage(image).endContainer().endSpec().endTemplate().build();
  }

  private boolean stored() {
    return api.admin().resources(PodTemplate.class).inNamespace(NS).withName("capacitybuffer-b-pod-template").get() != null;
  }

  @Test
  void aTemplateDeletedAfterItWasWrittenIsCreatedAgainInsteadOfUpdatedForever() throws Exception {
    ManagedTemplates.upsert(store, desired("v1"));
    assertThat(stored()).isTrue();
    // deleted on the server before the cache ever saw it (the garbage collector after the buffer's deletion)
    api.admin().resources(PodTemplate.class).inNamespace(NS).withName("capacitybuffer-b-pod-template").delete();
    assertThat(stored()).isFalse();
    // within the overlay's time the store still believes in its write: the UPDATE's 404 makes it look again and create
    PodTemplate again = ManagedTemplates.upsert(store, desired("v2"));
    assertThat(again.getTemplate().getSpec().getContainers().get(0).getImage()).isEqualTo("v2");
    assertThat(stored()).isTrue();
  }

  @Test
  void anOverlayEntryTheCacheNeverSawExpiresAndThePruneDropsIt() throws Exception {
    ManagedTemplates.upsert(store, desired("v1"));
    assertThat(store.get(NS, "capacitybuffer-b-pod-template")).isPresent();
    assertThat(store.overlaySize()).isEqualTo(1);
    api.admin().resources(PodTemplate.class).inNamespace(NS).withName("capacitybuffer-b-pod-template").delete();
    nanos.addAndGet(ApiTemplateStore.OVERLAY_TTL.toNanos() + 1);
    // the cache does not hold it and the overlay's entry is too old to stand in for it: absent, so a create follows
    assertThat(store.get(NS, "capacitybuffer-b-pod-template")).isEmpty();
    assertThat(store.overlaySize()).isZero();

    // templates of buffers deleted for good are never read again: the periodic prune drops them
    for (int i = 0; i < 3; i++) {
      PodTemplate t = desired("v1");
      t.getMetadata().setName("gone-" + i);
      store.create(t);
    }
    nanos.addAndGet(ApiTemplateStore.OVERLAY_TTL.toNanos() + 1);
    for (int i = 0; i < ApiTemplateStore.PRUNE_EVERY_WRITES; i++) {
      PodTemplate t = desired("v1");
      t.getMetadata().setName("t-" + i);
      store.create(t);
    }
    // the three templates older than the overlay's time are gone; the 256 new ones stay
    assertThat(store.overlaySize()).isEqualTo(ApiTemplateStore.PRUNE_EVERY_WRITES);
  }

  @Test
  void aDeletionTheInformersSeeEndsTheOverlaysEntryOfThatObjectOnly() throws Exception {
    PodTemplate first = ManagedTemplates.upsert(store, desired("v1"));
    api.admin().resources(PodTemplate.class).inNamespace(NS).withName("capacitybuffer-b-pod-template").delete();
    store.deleted(first);
    // the same content again: without the deletion the overlay would answer "unchanged" and nothing would be written
    ManagedTemplates.upsert(store, desired("v1"));
    assertThat(stored()).isTrue();
    PodTemplate second = api.admin().resources(PodTemplate.class).inNamespace(NS).withName("capacitybuffer-b-pod-template").get();
    // a late deletion event of the first object leaves the write of the second in place
    store.deleted(first);
    assertThat(second.getMetadata().getUid()).isNotEqualTo(first.getMetadata().getUid());
    assertThat(store.overlaySize()).isEqualTo(1);
  }

  @Test
  void theCachesCopyReplacesTheOverlayOnceItIsAsNew() throws Exception {
    PodTemplate written = ManagedTemplates.upsert(store, desired("v1"));
    cache.put(NS + "/capacitybuffer-b-pod-template", written);
    assertThat(store.get(NS, "capacitybuffer-b-pod-template")).isPresent();
    assertThat(store.overlaySize()).isZero();
  }
}
