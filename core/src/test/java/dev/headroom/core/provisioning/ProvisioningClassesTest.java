package dev.headroom.core.provisioning;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.provisioningrequest.v1.ProvisioningRequest;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Which requests are handled. Vectors: kubernetes/autoscaler a16f0ae8,
 * {@code cluster-autoscaler/provisioningrequest/supported_class_test.go} ({@code TestSupportedProvisioningClass}).
 */
class ProvisioningClassesTest {
  private static final String CC = ProvisioningRequest.CLASS_CHECK_CAPACITY;
  private static final String BE = ProvisioningRequest.CLASS_BEST_EFFORT_ATOMIC;

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', nullValues = "-", value = {
      "Check capacity without instance                      | check-capacity.autoscaling.x-k8s.io          | -         | ''       | true",
      "Check capacity with matching instance param          | check-capacity.autoscaling.x-k8s.io          | instance  | instance | true",
      "Check capacity with not matching instance param      | check-capacity.autoscaling.x-k8s.io          | instance2 | instance | false",
      "Check capacity with matching instance prefix         | instancecheck-capacity.autoscaling.x-k8s.io  | -         | instance | true",
      "Check capacity with not matching instance prefix     | instance2check-capacity.autoscaling.x-k8s.io | -         | instance | false",
      "Best effort atomic                                   | best-effort-atomic-scale-up.autoscaling.x-k8s.io | -     | ''       | true",
      "Best effort atomic with any instance                 | best-effort-atomic-scale-up.autoscaling.x-k8s.io | -     | instance | false",
      "Invalid class name                                   | invalid                                      | -         | ''       | false",
      // Headroom: a processorInstance parameter with no instance configured is not ours
      "Check capacity with a parameter and no instance set  | check-capacity.autoscaling.x-k8s.io          | instance  | ''       | false",
  })
  void supportedAsTheClusterAutoscalerDecides(String name, String cls, String param, String instance, boolean want) {
    ProvisioningRequest pr = Requests.request("pr", cls, "t", 1, Instant.EPOCH);
    if (param != null) {
      Requests.withParameters(pr, Map.of(ProvisioningClasses.PROCESSOR_INSTANCE_PARAMETER, param));
    }
    assertThat(ProvisioningClasses.supported(pr, instance)).isEqualTo(want);
  }

  @ParameterizedTest
  @CsvSource({"true,true", "false,false", "TRUE,false", "yes,false"})
  void noRetryIsTheExactStringTrue(String value, boolean want) {
    ProvisioningRequest pr = Requests.withParameters(Requests.request("pr", CC, "t", 1, Instant.EPOCH),
        Map.of(ProvisioningClasses.NO_RETRY_PARAMETER, value));
    assertThat(ProvisioningClasses.noRetry(pr)).isEqualTo(want);
    assertThat(ProvisioningClasses.noRetry(Requests.request("pr", BE, "t", 1, Instant.EPOCH))).isFalse();
  }
}
