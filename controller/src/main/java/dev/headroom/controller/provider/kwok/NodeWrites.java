package dev.headroom.controller.provider.kwok;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeCondition;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Instant;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The KWOK-style provider's node writes: each an update under the resourceVersion just read, read afresh and retried
 * on a conflict. Other controllers write the same nodes (the node-lifecycle controller their taints and Ready
 * condition), so a JSON patch computed from an older copy could fail with 422 when the node changed in between.
 */
final class NodeWrites {
  /** Conflicting node updates are read again and retried this often before the write gives up. */
  static final int MAX_UPDATE_ATTEMPTS = 5;

  private NodeWrites() {}

  /**
   * Reads the node, lets {@code edit} change its metadata and spec (false: nothing to write), and updates it.
   *
   * @return the updated node; null when {@code edit} declined
   * @throws KubernetesClientException when the node is gone or the write fails for good
   */
  static Node update(KubernetesClient client, String name, Predicate<Node> edit) {
    for (int attempt = 1; ; attempt++) {
      Node n = read(client, name);
      if (!edit.test(n)) {
        return null;
      }
      try {
        return client.nodes().resource(n).update();
      } catch (KubernetesClientException e) {
        if ((e.getCode() != 409 && e.getCode() != 422) || attempt >= MAX_UPDATE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /**
   * Replaces the node's Ready condition (the other conditions kept) through the status subresource.
   *
   * @return the updated node
   */
  static Node writeReady(KubernetesClient client, String name, NodeCondition ready) {
    for (int attempt = 1; ; attempt++) {
      Node n = read(client, name);
      List<NodeCondition> conditions = new ArrayList<>();
      if (n.getStatus().getConditions() != null) {
        for (NodeCondition c : n.getStatus().getConditions()) {
          if (!"Ready".equals(c.getType())) {
            conditions.add(c);
          }
        }
      }
      conditions.add(ready);
      n.getStatus().setConditions(conditions);
      try {
        // under the resourceVersion just read: the node-lifecycle controller writes the same conditions
        return client.nodes().resource(n).updateStatus();
      } catch (KubernetesClientException e) {
        if (e.getCode() != 409 || attempt >= MAX_UPDATE_ATTEMPTS) {
          throw e;
        }
      }
    }
  }

  /** A Ready condition with this status, reason and message, its times {@code now}. */
  static NodeCondition ready(boolean ready, String reason, String message, Instant now) {
    String ts = format(now);
    return new NodeConditionBuilder()
        .withType("Ready")
        .withStatus(ready ? "True" : "False")
        .withReason(reason)
        .withMessage(message)
        .withLastTransitionTime(ts)
        .withLastHeartbeatTime(ts)
        .build();
  }

  /** RFC 3339 at second precision, as the provider's time annotations are written. */
  static String format(Instant t) {
    return DateTimeFormatter.ISO_INSTANT.format(t.truncatedTo(ChronoUnit.SECONDS));
  }

  private static Node read(KubernetesClient client, String name) {
    Node n = client.nodes().withName(name).get();
    if (n == null) {
      throw new KubernetesClientException("node " + name + " no longer exists");
    }
    return n;
  }
}
