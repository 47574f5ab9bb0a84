package dev.headroom.core.provisioning;

import dev.headroom.api.provisioningrequest.v1.PodSet;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestSpec;
import dev.headroom.api.provisioningrequest.v1.ProvisioningRequestStatus;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Test requests. */
public final class Requests {
  private Requests() {}

  /** A request {@code default/name} of {@code cls}, one podSet of {@code count} pods of template {@code template}. */
  public static ProvisioningRequest request(String name, String cls, String template, int count, Instant created,
      Condition... conditions) {
    ProvisioningRequest pr = new ProvisioningRequest();
    ObjectMeta m = new ObjectMeta();
    m.setName(name);
    m.setNamespace("default");
    m.setUid(name + "-uid");
    m.setGeneration(1L);
    m.setCreationTimestamp(created.toString());
    pr.setMetadata(m);
    ProvisioningRequestSpec spec = new ProvisioningRequestSpec();
    spec.setProvisioningClassName(cls);
    spec.setPodSets(new ArrayList<>(List.of(new PodSet(template, count))));
    pr.setSpec(spec);
    ProvisioningRequestStatus st = new ProvisioningRequestStatus();
    st.setConditions(new ArrayList<>(Arrays.asList(conditions)));
    pr.setStatus(st);
    return pr;
  }

  public static ProvisioningRequest withParameters(ProvisioningRequest pr, Map<String, String> p) {
    pr.getSpec().setParameters(new LinkedHashMap<>(p));
    return pr;
  }

  public static Condition condition(String type, String status, Instant at, String reason, String message) {
    return new Condition(at.toString(), message, null, reason, status, type);
  }

  public static Condition condition(String type, String status, Instant at) {
    return condition(type, status, at, "Reason", "");
  }
}
