package dev.headroom.controller.provider;

import dev.headroom.core.nodegroup.NodeGroup;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the KWOK-style provider's {@code NodeGroup} documents come from: a file (read once, validated at start-up) or
 * the ConfigMap {@code headroom-node-groups} key {@code nodegroups.yaml} (re-read on every loop, so groups can be edited
 * live; a broken edit is logged and the last good groups stay in force).
 */
public final class NodeGroupSource implements Supplier<List<NodeGroup>> {
  private static final Logger LOG = LoggerFactory.getLogger(NodeGroupSource.class);

  private final Supplier<List<NodeGroup>> reader;
  private List<NodeGroup> lastGood = List.of();
  private String lastError;

  private NodeGroupSource(Supplier<List<NodeGroup>> reader) {
    this.reader = reader;
  }

  /**
   * The groups of a file, parsed now.
   *
   * @throws NodeGroupConfig.InvalidNodeGroupsException with {@code FILE:LINE: what is wrong}
   */
  public static NodeGroupSource file(Path file) {
    List<NodeGroup> groups = NodeGroupConfig.load(file);
    NodeGroupSource s = new NodeGroupSource(() -> groups);
    s.lastGood = groups;
    return s;
  }

  /** The groups of the ConfigMap {@code namespace/headroom-node-groups}, read on every call. */
  public static NodeGroupSource configMap(KubernetesClient client, String namespace) {
    String source = "configmap/" + namespace + "/" + NodeGroupConfig.CONFIG_MAP_NAME + "[" + NodeGroupConfig.CONFIG_MAP_KEY + "]";
    return new NodeGroupSource(() -> {
      ConfigMap cm = client.configMaps().inNamespace(namespace).withName(NodeGroupConfig.CONFIG_MAP_NAME).get();
      if (cm == null || cm.getData() == null || cm.getData().get(NodeGroupConfig.CONFIG_MAP_KEY) == null) {
        throw new NodeGroupConfig.InvalidNodeGroupsException(source + ":1: not found");
      }
      return NodeGroupConfig.parse(source, cm.getData().get(NodeGroupConfig.CONFIG_MAP_KEY));
    });
  }

  @Override
  public synchronized List<NodeGroup> get() {
    try {
      lastGood = reader.get();
      lastError = null;
    } catch (NodeGroupConfig.InvalidNodeGroupsException | KubernetesClientException e) {
      if (!e.getMessage().equals(lastError)) {
        LOG.warn("node groups: {} (keeping the last valid configuration, {} groups)", e.getMessage(), lastGood.size());
        lastError = e.getMessage();
      }
    }
    return lastGood;
  }
}
