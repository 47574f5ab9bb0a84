package dev.headroom.core.autoscaler;

import dev.headroom.api.v1beta1.CapacityBuffer;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodTemplate;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The virtual pods of each buffer, kept across loops while the buffer's identity, its managed template and
 * its replica count stay the same, so consecutive loops see the same pod objects (and the compiled-object
 * cache recognises them) instead of thousands of new ones. A template is the same when it is the same object,
 * or has the same UID and a non-empty, unchanged resourceVersion. Buffers not injected in a loop are forgotten.
 */
final class VirtualPodCache {

  private record Key(String bufferUid, String namespace, String name, String templateUid, String templateVersion,
      PodTemplate templateObject, int replicas, String gangTopologyKey) {

    static Key of(CapacityBuffer b, PodTemplate t, int replicas) {
      ObjectMeta bm = b.getMetadata();
      ObjectMeta tm = t.getMetadata();
      String version = tm == null ? null : tm.getResourceVersion();
      boolean versioned = version != null && !version.isEmpty() && tm.getUid() != null;
      return new Key(bm.getUid(), bm.getNamespace(), bm.getName(), tm == null ? null : tm.getUid(), version,
          versioned ? null : t, replicas, VirtualPods.gangTopologyKey(b));
    }

    Key withReplicas(int n) {
      return new Key(bufferUid, namespace, name, templateUid, templateVersion, templateObject, n, gangTopologyKey);
    }

    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && templateObject == k.templateObject && replicas == k.replicas
          && Objects.equals(bufferUid, k.bufferUid) && Objects.equals(namespace, k.namespace) && Objects.equals(name, k.name)
          && Objects.equals(templateUid, k.templateUid) && Objects.equals(templateVersion, k.templateVersion)
          && Objects.equals(gangTopologyKey, k.gangTopologyKey);
    }

    @Override
    public int hashCode() {
      return Objects.hash(bufferUid, namespace, name, templateUid, templateVersion, System.identityHashCode(templateObject), replicas);
    }
  }

  private Map<String, Map.Entry<Key, List<Pod>>> previous = new HashMap<>();
  private Map<String, Map.Entry<Key, List<Pod>>> current = new HashMap<>();

  /** Starts a loop: buffers not asked for since the previous start are dropped. */
  void nextLoop() {
    previous = current;
    current = new HashMap<>();
  }

  /** The buffer's virtual pods, built by {@link VirtualPods#build} unless the same ones are kept. */
  List<Pod> pods(CapacityBuffer b, PodTemplate template, int replicas) {
    String id = b.getMetadata().getNamespace() + "/" + b.getMetadata().getName();
    Key key = Key.of(b, template, replicas);
    Map.Entry<Key, List<Pod>> kept = previous.get(id);
    if (kept == null) {
      kept = current.get(id);
    }
    if (kept == null || !kept.getKey().equals(key)) {
      if (kept != null && !kept.getValue().isEmpty() && replicas > 0 && kept.getKey().withReplicas(replicas).equals(key)) {
        // only the chunk count changed: the chunks both counts have are the same pods
        kept = Map.entry(key, VirtualPods.resize(kept.getValue(), b, replicas));
      } else {
        kept = Map.entry(key, VirtualPods.build(b, template, replicas));
      }
    }
    current.put(id, kept);
    return kept.getValue();
  }
}
