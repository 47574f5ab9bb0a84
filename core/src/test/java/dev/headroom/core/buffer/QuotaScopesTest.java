package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.AffinityBuilder;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.PodAffinityTermBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ScopeSelectorBuilder;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirement;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTermBuilder;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.12: quota scope matching against the pod built from the template. */
class QuotaScopesTest {

  static final PodAffinityTerm TERM = new PodAffinityTermBuilder().withTopologyKey("zone").withNamespaces("other").build();

  static Consumer<PodSpec> none() {
    return s -> {};
  }

  static Consumer<PodSpec> cpu() {
    return s -> s.setContainers(List.of(Fixtures.container("c", "cpu=100m", null)));
  }

  static Consumer<PodSpec> priority(String name) {
    return s -> s.setPriorityClassName(name);
  }

  static Consumer<PodSpec> affinity(Affinity a) {
    return s -> s.setAffinity(a);
  }

  static ResourceQuota scopes(String... scopes) {
    ResourceQuota q = Fixtures.quota("q", "cpu=1", null, scopes);
    return q;
  }

  static ResourceQuota selector(String operator, String... values) {
    ResourceQuota q = Fixtures.quota("q", "cpu=1", null);
    q.getSpec().setScopeSelector(new ScopeSelectorBuilder().withMatchExpressions(new ScopedResourceSelectorRequirement(operator, "PriorityClass", List.of(values))).build());
    return q;
  }

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("9.12 scope NotTerminating matches", none(), scopes("NotTerminating"), true, false),
        Arguments.of("9.12 scope Terminating does not match", none(), scopes("Terminating"), false, false),
        Arguments.of("9.12 scope BestEffort matches BestEffort pod", none(), scopes("BestEffort"), true, false),
        Arguments.of("9.12 scope BestEffort does not match Burstable pod", cpu(), scopes("BestEffort"), false, false),
        Arguments.of("9.12 scope NotBestEffort matches Burstable pod", cpu(), scopes("NotBestEffort"), true, false),
        Arguments.of("9.12 scope NotBestEffort does not match BestEffort pod", none(), scopes("NotBestEffort"), false, false),
        Arguments.of("9.12 PriorityClass OpIn matches", priority("high"), selector("In", "high", "medium"), true, false),
        Arguments.of("9.12 PriorityClass OpIn does not match", priority("low"), selector("In", "high", "medium"), false, false),
        Arguments.of("9.12 PriorityClass OpNotIn matches", priority("low"), selector("NotIn", "high", "medium"), true, false),
        Arguments.of("9.12 PriorityClass OpNotIn does not match", priority("high"), selector("NotIn", "high", "medium"), false, false),
        Arguments.of("9.12 PriorityClass OpExists matches", priority("any"), selector("Exists"), true, false),
        Arguments.of("9.12 PriorityClass OpExists does not match", none(), selector("Exists"), false, false),
        Arguments.of("9.12 PriorityClass OpDoesNotExist matches", none(), selector("DoesNotExist"), true, false),
        Arguments.of("9.12 PriorityClass OpDoesNotExist does not match", priority("any"), selector("DoesNotExist"), false, false),
        Arguments.of("9.12 Invalid Operator error", none(), selector("invalid", "foo"), false, true),
        Arguments.of("9.12 OpIn empty values error", none(), selector("In"), false, true),
        Arguments.of("9.12 CrossNamespacePodAffinity matches", affinity(new AffinityBuilder().withNewPodAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(TERM).endPodAffinity().build()),
            scopes("CrossNamespacePodAffinity"), true, false),
        Arguments.of("9.12 CrossNamespacePodAffinity does not match", none(), scopes("CrossNamespacePodAffinity"), false, false),
        Arguments.of("9.12 CrossNamespacePodAffinity matches (PodAffinity Preferred)",
            affinity(new AffinityBuilder().withNewPodAffinity().withPreferredDuringSchedulingIgnoredDuringExecution(new WeightedPodAffinityTermBuilder().withWeight(1).withPodAffinityTerm(TERM).build()).endPodAffinity().build()),
            scopes("CrossNamespacePodAffinity"), true, false),
        Arguments.of("9.12 CrossNamespacePodAffinity matches (PodAntiAffinity Required)",
            affinity(new AffinityBuilder().withNewPodAntiAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(TERM).endPodAntiAffinity().build()),
            scopes("CrossNamespacePodAffinity"), true, false),
        Arguments.of("9.12 CrossNamespacePodAffinity matches (PodAntiAffinity Preferred)",
            affinity(new AffinityBuilder().withNewPodAntiAffinity().withPreferredDuringSchedulingIgnoredDuringExecution(new WeightedPodAffinityTermBuilder().withWeight(1).withPodAffinityTerm(TERM).build()).endPodAntiAffinity().build()),
            scopes("CrossNamespacePodAffinity"), true, false),
        Arguments.of("5.3 namespaceSelector counts as cross-namespace",
            affinity(new AffinityBuilder().withNewPodAffinity().withRequiredDuringSchedulingIgnoredDuringExecution(new PodAffinityTermBuilder().withTopologyKey("zone").withNewNamespaceSelector().endNamespaceSelector().build()).endPodAffinity().build()),
            scopes("CrossNamespacePodAffinity"), true, false),
        Arguments.of("5.3 unknown scope never matches", none(), scopes("VolumeAttributesClass"), false, false),
        Arguments.of("5.3 all scopes must match", cpu(), scopes("NotTerminating", "BestEffort"), false, false),
        Arguments.of("5.3 spec.scopes PriorityClass means Exists", priority("high"), scopes("PriorityClass"), true, false));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void scopeMatching(String name, Consumer<PodSpec> template, ResourceQuota quota, boolean match, boolean error) throws Exception {
    PodSpec spec = new PodSpec();
    spec.setContainers(List.of(Fixtures.container("c", null, null)));
    template.accept(spec);
    PodTemplateSpec t = new PodTemplateSpec();
    t.setSpec(spec);
    var pod = DefaultingPodResolver.build("default", t);
    if (error) {
      assertThatThrownBy(() -> QuotaScopes.matches(quota, pod)).isInstanceOf(QuotaScopes.ScopeException.class);
    } else {
      assertThat(QuotaScopes.matches(quota, pod)).isEqualTo(match);
    }
  }
}
