package dev.headroom.core.scheduling;

import java.util.Map;
import java.util.Set;

/**
 * A required pod (anti-)affinity term with its namespaces resolved: {@code namespaces} lists the
 * namespaces whose pods the term selects ({@code allNamespaces} when an empty {@code namespaceSelector}
 * was given); empty {@code namespaces} and empty selector resolve to the owner pod's own namespace at
 * compile time. {@code namespaceSelector}, when not null, selects further namespaces by their labels.
 */
public record AffinityTerm(
    Set<String> namespaces,
    boolean allNamespaces,
    LabelSelectorMatcher namespaceSelector,
    LabelSelectorMatcher selector,
    String topologyKey) {

  public AffinityTerm {
    namespaces = Set.copyOf(namespaces);
  }

  /**
   * True when a pod in {@code namespace} with {@code labels} is selected by the term; {@code nsLabels} are
   * that namespace's labels (empty when unknown).
   */
  public boolean matches(String namespace, Map<String, String> labels, Map<String, String> nsLabels) {
    boolean nsOk =
        allNamespaces
            || namespaces.contains(namespace)
            || (namespaceSelector != null && namespaceSelector.matches(nsLabels));
    return nsOk && selector.matches(labels);
  }
}
