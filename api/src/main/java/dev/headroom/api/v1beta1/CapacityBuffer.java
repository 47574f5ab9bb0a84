package dev.headroom.api.v1beta1;

import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/** A CapacityBuffer, storage version {@code autoscaling.x-k8s.io/v1beta1}. */
@Group(CapacityBuffer.GROUP)
@Version(value = CapacityBuffer.VERSION, storage = true, served = true)
@Kind("CapacityBuffer")
@Plural("capacitybuffers")
@Singular("capacitybuffer")
@ShortNames("cb")
public class CapacityBuffer extends CustomResource<CapacityBufferSpec, CapacityBufferStatus> implements Namespaced {
  public static final String GROUP = "autoscaling.x-k8s.io";
  public static final String VERSION = "v1beta1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "CapacityBuffer";
}
