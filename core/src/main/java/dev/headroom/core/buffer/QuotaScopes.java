package dev.headroom.core.buffer;

import io.fabric8.kubernetes.api.model.Affinity;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodAffinityTerm;
import io.fabric8.kubernetes.api.model.ResourceQuota;
import io.fabric8.kubernetes.api.model.ScopedResourceSelectorRequirement;
import io.fabric8.kubernetes.api.model.WeightedPodAffinityTerm;
import dev.headroom.core.resources.EffectiveRequests;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/** Whether a ResourceQuota's scopes match a buffer pod (spec §5.3). */
public final class QuotaScopes {

  /** A scope that cannot be evaluated (bad operator or values); its message is rendered into the requeue error. */
  public static final class ScopeException extends Exception {
    private static final long serialVersionUID = 1L;

    ScopeException(String message) {
      super(message);
    }
  }

  private QuotaScopes() {}

  /** True iff every scope of {@code quota} ({@code spec.scopes} and {@code spec.scopeSelector}) matches {@code pod}. */
  public static boolean matches(ResourceQuota quota, Pod pod) throws ScopeException {
    List<ScopedResourceSelectorRequirement> scopes = new ArrayList<>();
    if (quota.getSpec() != null) {
      if (quota.getSpec().getScopes() != null) {
        for (String s : quota.getSpec().getScopes()) {
          scopes.add(new ScopedResourceSelectorRequirement("Exists", s, null));
        }
      }
      if (quota.getSpec().getScopeSelector() != null && quota.getSpec().getScopeSelector().getMatchExpressions() != null) {
        scopes.addAll(quota.getSpec().getScopeSelector().getMatchExpressions());
      }
    }
    for (ScopedResourceSelectorRequirement scope : scopes) {
      if (!matches(scope, pod)) {
        return false;
      }
    }
    return true;
  }

  /** One scope against the pod. */
  public static boolean matches(ScopedResourceSelectorRequirement scope, Pod pod) throws ScopeException {
    String name = scope.getScopeName() == null ? "" : scope.getScopeName();
    return switch (name) {
      case "NotTerminating" -> true;
      case "Terminating" -> false;
      case "BestEffort" -> isBestEffort(pod);
      case "NotBestEffort" -> !isBestEffort(pod);
      case "PriorityClass" -> priorityClassMatches(scope, pod);
      case "CrossNamespacePodAffinity" -> usesCrossNamespaceAffinity(pod);
      default -> false;
    };
  }

  private static boolean isBestEffort(Pod pod) {
    Map<String, Long> requests = EffectiveRequests.of(pod.getSpec());
    return requests.getOrDefault("cpu", 0L) <= 0 && requests.getOrDefault("memory", 0L) <= 0;
  }

  private static boolean priorityClassMatches(ScopedResourceSelectorRequirement scope, Pod pod) throws ScopeException {
    String className = pod.getSpec() == null ? null : pod.getSpec().getPriorityClassName();
    boolean hasClass = className != null && !className.isEmpty();
    String operator = scope.getOperator() == null ? "" : scope.getOperator();
    List<String> values = scope.getValues() == null ? List.of() : scope.getValues();
    return switch (operator) {
      case "Exists" -> hasClass;
      case "DoesNotExist" -> !hasClass;
      case "In", "NotIn" -> {
        if (values.isEmpty()) {
          throw new ScopeException("values: Invalid value: []string{}: for 'in', 'notin' operators, values set can't be empty");
        }
        boolean in = hasClass && values.contains(className);
        yield operator.equals("In") ? in : !in;
      }
      default -> throw new ScopeException("\"" + operator + "\" is not a valid scope selector operator");
    };
  }

  private static boolean usesCrossNamespaceAffinity(Pod pod) {
    Affinity a = pod.getSpec() == null ? null : pod.getSpec().getAffinity();
    if (a == null) {
      return false;
    }
    List<PodAffinityTerm> terms = new ArrayList<>();
    if (a.getPodAffinity() != null) {
      addAll(terms, a.getPodAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), a.getPodAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
    }
    if (a.getPodAntiAffinity() != null) {
      addAll(terms, a.getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution(), a.getPodAntiAffinity().getPreferredDuringSchedulingIgnoredDuringExecution());
    }
    return terms.stream().anyMatch(t -> (t.getNamespaces() != null && !t.getNamespaces().isEmpty()) || t.getNamespaceSelector() != null);
  }

  private static void addAll(List<PodAffinityTerm> out, List<PodAffinityTerm> required, List<WeightedPodAffinityTerm> preferred) {
    Stream.ofNullable(required).flatMap(List::stream).forEach(out::add);
    Stream.ofNullable(preferred).flatMap(List::stream).map(WeightedPodAffinityTerm::getPodAffinityTerm).filter(t -> t != null).forEach(out::add);
  }
}
