package dev.headroom.api.provisioningrequest.v1;

import com.fasterxml.jackson.annotation.JsonClassDescription;
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
 * A ProvisioningRequest, {@code autoscaling.x-k8s.io/v1}: the Cluster Autoscaler's API (kubernetes/autoscaler,
 * {@code cluster-autoscaler/apis/provisioningrequest}) for asking for capacity for a set of pods as a whole,
 * under a provisioning class. Headroom reads it as the Cluster Autoscaler does; the schema of its CRD
 * ({@code deploy/crds/provisioningrequests.autoscaling.x-k8s.io.yaml}) is generated from these classes and held
 * equal to upstream's by {@code ProvisioningRequestCrdTest}.
 */
@Group(ProvisioningRequest.GROUP)
@Version(value = ProvisioningRequest.VERSION, storage = true, served = true)
@Kind(ProvisioningRequest.KIND)
@Plural(ProvisioningRequest.PLURAL)
@Singular(ProvisioningRequest.SINGULAR)
@ShortNames({"provreq", "provreqs"})
@JsonClassDescription("ProvisioningRequest asks for capacity for a set of pods, provisioned as a whole under a "
    + "provisioning class.")
@AdditionalPrinterColumn(name = "Age", jsonPath = ".metadata.creationTimestamp",
    type = AdditionalPrinterColumn.Type.DATE)
public class ProvisioningRequest extends CustomResource<ProvisioningRequestSpec, ProvisioningRequestStatus>
    implements Namespaced {
  private static final long serialVersionUID = 1L;

  public static final String GROUP = "autoscaling.x-k8s.io";
  public static final String VERSION = "v1";
  public static final String API_VERSION = GROUP + "/" + VERSION;
  public static final String KIND = "ProvisioningRequest";
  public static final String PLURAL = "provisioningrequests";
  public static final String SINGULAR = "provisioningrequest";
  /** The CRD name, {@code <plural>.<group>}. */
  public static final String CRD_NAME = PLURAL + "." + GROUP;

  /** The class that checks whether the cluster has room for the pods now, without scaling up. */
  public static final String CLASS_CHECK_CAPACITY = "check-capacity.autoscaling.x-k8s.io";
  /** The class that scales up for all of the pods or for none of them. */
  public static final String CLASS_BEST_EFFORT_ATOMIC = "best-effort-atomic-scale-up.autoscaling.x-k8s.io";
  /** Pod annotation: the name of the ProvisioningRequest (same namespace) whose capacity the pod consumes. */
  public static final String CONSUME_ANNOTATION = "autoscaling.x-k8s.io/consume-provisioning-request";
  /** Pod annotation: the provisioning class of the request the pod consumes. */
  public static final String CLASS_ANNOTATION = "autoscaling.x-k8s.io/provisioning-class-name";
  /** The older spelling of {@link #CONSUME_ANNOTATION}, still read by the Cluster Autoscaler. */
  public static final String DEPRECATED_CONSUME_ANNOTATION = "cluster-autoscaler.kubernetes.io/consume-provisioning-request";
  /** The older spelling of {@link #CLASS_ANNOTATION}. */
  public static final String DEPRECATED_CLASS_ANNOTATION = "cluster-autoscaler.kubernetes.io/provisioning-class-name";

  @Override
  @Required
  public ProvisioningRequestSpec getSpec() {
    return super.getSpec();
  }

  @Override
  public ProvisioningRequestStatus getStatus() {
    return super.getStatus();
  }
}
