package dev.headroom.core.buffer;

import dev.headroom.api.v1beta1.CapacityBuffer;
import dev.headroom.api.v1beta1.CapacityBufferSpec;
import dev.headroom.api.v1beta1.LocalObjectRef;
import dev.headroom.api.v1beta1.ScalableRef;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.PodTemplate;
import io.fabric8.kubernetes.api.model.PodTemplateBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ResourceQuotaBuilder;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Builders for the fixtures of spec §9 (fake-client conventions: generation 0, no uid, no timestamps). */
final class Fixtures {

  static final String NS = "default";
  static final String ACTIVE = BufferConditions.STRATEGY_ACTIVE_CAPACITY;

  private Fixtures() {}

  /** "cpu=1,memory=1Gi" → quantity map (insertion order); null or "" → null. */
  static Map<String, Quantity> q(String spec) {
    if (spec == null || spec.isEmpty()) {
      return null;
    }
    Map<String, Quantity> out = new LinkedHashMap<>();
    for (String kv : spec.split(",")) {
      String[] p = kv.split("=", 2);
      out.put(p[0].trim(), new Quantity(p[1].trim()));
    }
    return out;
  }

  static Container container(String name, String requests, String limits) {
    ContainerBuilder b = new ContainerBuilder().withName(name);
    if (requests != null || limits != null) {
      b.withNewResources().withRequests(q(requests)).withLimits(q(limits)).endResources();
    }
    return b.build();
  }

  static PodSpec spec(Container... containers) {
    return new PodSpecBuilder().withContainers(containers).build();
  }

  static PodTemplate template(String name, long generation, PodSpec spec) {
    return new PodTemplateBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).withGeneration(generation).build())
        .withNewTemplate().withSpec(spec).endTemplate()
        .build();
  }

  static PodTemplate template(String name, String requests) {
    return template(name, 0, spec(container("c", requests, null)));
  }

  static CapacityBuffer buffer(String name) {
    CapacityBuffer b = new CapacityBuffer();
    b.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build());
    b.setSpec(new CapacityBufferSpec());
    return b;
  }

  static CapacityBuffer templateBuffer(String name, String templateRef, Integer replicas, String limits) {
    CapacityBuffer b = buffer(name);
    b.getSpec().setPodTemplateRef(templateRef == null ? null : new LocalObjectRef(templateRef));
    b.getSpec().setReplicas(replicas);
    b.getSpec().setLimits(q(limits));
    return b;
  }

  static CapacityBuffer scalableBuffer(String name, String group, String kind, String target, Integer percentage, Integer replicas, String limits) {
    CapacityBuffer b = buffer(name);
    b.getSpec().setScalableRef(kind == null ? null : new ScalableRef(group, kind, target));
    b.getSpec().setPercentage(percentage);
    b.getSpec().setReplicas(replicas);
    b.getSpec().setLimits(q(limits));
    return b;
  }

  static ResourceQuota quota(String name, String hard, String used, String... scopes) {
    return new ResourceQuotaBuilder()
        .withMetadata(new ObjectMetaBuilder().withName(name).withNamespace(NS).build())
        .withNewSpec().withHard(q(hard)).withScopes(scopes.length == 0 ? null : List.of(scopes)).endSpec()
        .withNewStatus().withHard(q(hard)).withUsed(q(used)).endStatus()
        .build();
  }

  /** A condition without lastTransitionTime, for comparisons. */
  static Condition cond(String type, String status, String reason, String message) {
    return BufferConditions.condition(type, status, reason, message, 0);
  }

  static Condition ready() {
    return cond("ReadyForProvisioning", "True", "AttributesSetSuccessfully", "ready");
  }

  static Condition notReady(String message) {
    return cond("ReadyForProvisioning", "False", "error", message);
  }

  /** Conditions stripped of lastTransitionTime. */
  static List<Condition> withoutTime(List<Condition> in) {
    List<Condition> out = new ArrayList<>();
    if (in != null) {
      for (Condition c : in) {
        out.add(cond(c.getType(), c.getStatus(), c.getReason(), c.getMessage()));
      }
    }
    return out;
  }
}
