package dev.headroom.controller.cache;

import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionVersion;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceSubresourceScale;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.Optional;

/**
 * A custom kind referenced by a buffer's {@code scalableRef}, resolved from its CustomResourceDefinition: the
 * version to read, the plural, the scope, and where its {@code /scale} values live (empty when it has no scale
 * subresource).
 */
public record CustomKind(String group, String version, String kind, String plural, boolean namespaced, Optional<ScaleSource> scale) {

  /** Resolves from a CRD: the storage version (or the first served one) decides version and scale paths. */
  public static CustomKind of(CustomResourceDefinition crd) {
    CustomResourceDefinitionVersion chosen = null;
    for (CustomResourceDefinitionVersion v : crd.getSpec().getVersions()) {
      if (Boolean.TRUE.equals(v.getStorage())) {
        chosen = v;
      }
    }
    if (chosen == null) {
      chosen = crd.getSpec().getVersions().stream().filter(v -> Boolean.TRUE.equals(v.getServed())).findFirst()
          .orElse(crd.getSpec().getVersions().get(0));
    }
    Optional<ScaleSource> scale = Optional.empty();
    if (chosen.getSubresources() != null && chosen.getSubresources().getScale() != null) {
      CustomResourceSubresourceScale s = chosen.getSubresources().getScale();
      scale = Optional.of(new ScaleSource(s.getSpecReplicasPath(), s.getStatusReplicasPath(), s.getLabelSelectorPath()));
    }
    return new CustomKind(crd.getSpec().getGroup(), chosen.getName(), crd.getSpec().getNames().getKind(),
        crd.getSpec().getNames().getPlural(), "Namespaced".equals(crd.getSpec().getScope()), scale);
  }

  /** The fabric8 context for generic access to this kind. */
  public ResourceDefinitionContext context() {
    return new ResourceDefinitionContext.Builder()
        .withGroup(group).withVersion(version).withKind(kind).withPlural(plural).withNamespaced(namespaced).build();
  }

  /** The Kubernetes not-found text of an object of this kind. */
  public String notFound(String name) {
    return plural + (group.isEmpty() ? "" : "." + group) + " \"" + name + "\" not found";
  }
}
