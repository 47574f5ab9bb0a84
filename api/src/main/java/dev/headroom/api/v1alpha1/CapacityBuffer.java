package dev.headroom.api.v1alpha1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
import dev.headroom.api.v1beta1.CapacityBufferStatus;
import io.fabric8.crd.generator.annotation.AdditionalPrinterColumn;
import io.fabric8.generator.annotation.Required;
import io.fabric8.kubernetes.api.model.Namespaced;
import io.fabric8.kubernetes.client.CustomResource;
import io.fabric8.kubernetes.model.annotation.Group;
import io.fabric8.kubernetes.model.annotation.Kind;
import io.fabric8.kubernetes.model.annotation.Plural;
import io.fabric8.kubernetes.model.annotation.ShortNames;
import io.fabric8.kubernetes.model.annotation.Singular;
import io.fabric8.kubernetes.model.annotation.Version;

/**
 * A CapacityBuffer in the deprecated, still served version {@code autoscaling.x-k8s.io/v1alpha1}. Its schema is
 * identical to v1beta1 except for the message of the second CEL rule; Headroom reads and writes v1beta1 only and
 * converts with {@link dev.headroom.api.CapacityBufferConversion}.
 *
 * <p>The printer columns and the CRD schema are generated from this class (see {@code deploy/crds/}).
 */
@Group(CapacityBuffer.GROUP)
@Version(value = CapacityBuffer.VERSION, storage = false, served = true, deprecated = true)
@Kind(CapacityBuffer.KIND)
@Plural(CapacityBuffer.PLURAL)
@Singular(CapacityBuffer.SINGULAR)
@ShortNames(CapacityBuffer.SHORT_NAME)
@JsonClassDescription("CapacityBuffer keeps spare capacity for a number of pods of a given shape available in the "
    + "cluster, ahead of demand.")
@AdditionalPrinterColumn(name = "Strategy", jsonPath = ".spec.provisioningStrategy",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "PodTemplate", jsonPath = ".status.podTemplateRef.name",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Replicas", jsonPath = ".status.replicas",
    type = AdditionalPrinterColumn.Type.INTEGER)
@AdditionalPrinterColumn(name = "ConditionsType", jsonPath = ".status.conditions[*].type",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ConditionsStatus", jsonPath = ".status.conditions[*].status",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "ConditionsReason", jsonPath = ".status.conditions[*].reason",
    type = AdditionalPrinterColumn.Type.STRING)
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class CapacityBuffer extends CustomResource<CapacityBufferSpec, CapacityBufferStatus> implements Namespaced {
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "autoscaling.x-k8s.io";
  public static final String VERSION = "v1alpha1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "CapacityBuffer";
  public static final String PLURAL = "capacitybuffers";
  public static final String SINGULAR = "capacitybuffer";
  public static final String SHORT_NAME = "cb";
  /** The CRD name, {@code <plural>.<group>}. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;

  @Override
  @Required
  public CapacityBufferSpec getSpec() {
    return super.getSpec();
  }

  @Override
  public CapacityBufferStatus getStatus() {
    return super.getStatus();
  }
}
