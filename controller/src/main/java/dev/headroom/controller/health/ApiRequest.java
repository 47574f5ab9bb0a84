package dev.headroom.controller.health;

import java.net.URI;
import java.util.Optional;

/**
 * A request to the API server in RBAC terms: verb, API group, resource (with subresource) and namespace. It names
 * the permission a 403 on the request means is missing.
 *
 * @param namespace null for a cluster-wide request
 */
public record ApiRequest(String verb, String group, String resource, String namespace) {

  /** The RBAC resource as {@code kubectl} names it: {@code pods}, {@code leases.coordination.k8s.io}, {@code capacitybuffers.autoscaling.x-k8s.io/status}. */
  public String qualifiedResource() {
    int slash = resource.indexOf('/');
    String base = slash < 0 ? resource : resource.substring(0, slash);
    String sub = slash < 0 ? "" : resource.substring(slash);
    return (group.isEmpty() ? base : base + "." + group) + sub;
  }

  /** {@code list pods (cluster-wide)} or {@code update capacitybuffers.autoscaling.x-k8s.io/status in namespace shop}. */
  public String permission() {
    return verb + " " + qualifiedResource() + ApiHealth.scope(namespace);
  }

  /** The request behind {@code method uri}, or empty for non-resource paths (discovery, {@code /version}, ...). */
  public static Optional<ApiRequest> of(String method, URI uri) {
    String path = uri.getRawPath() == null ? "" : uri.getRawPath();
    String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
    String[] parts = path.replaceFirst("^/+", "").split("/");
    int i;
    String group;
    if (parts.length >= 3 && parts[0].equals("api")) {
      group = "";
      i = 2;
    } else if (parts.length >= 4 && parts[0].equals("apis")) {
      group = parts[1];
      i = 3;
    } else {
      return Optional.empty();
    }
    String namespace = null;
    if (parts[i].equals("namespaces") && i + 2 < parts.length) {
      namespace = parts[i + 1];
      i += 2;
    }
    String resource = parts[i];
    String name = i + 1 < parts.length ? parts[i + 1] : null;
    String sub = i + 2 < parts.length ? parts[i + 2] : null;
    boolean watch = ("&" + query + "&").contains("&watch=true&") || ("&" + query + "&").contains("&watch=1&");
    String verb = switch (method.toUpperCase(java.util.Locale.ROOT)) {
      case "GET", "HEAD" -> watch ? "watch" : name == null ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> name == null ? "deletecollection" : "delete";
      default -> method.toLowerCase(java.util.Locale.ROOT);
    };
    if (name == null && namespace != null && resource.isEmpty()) {
      return Optional.empty();
    }
    return Optional.of(new ApiRequest(verb, group, sub == null ? resource : resource + "/" + sub, namespace));
  }
}
