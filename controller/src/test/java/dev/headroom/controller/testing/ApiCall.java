package dev.headroom.controller.testing;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

/**
 * One request the mock API server received, parsed into RBAC terms: verb, API group, resource (with subresource),
 * namespace and name; plus whether it was a dry run and which client sent it (User-Agent).
 */
public record ApiCall(String method, String verb, String group, String resource, String subresource, String namespace,
    String name, boolean dryRun, String userAgent, String path) {

  /** {@code resource} or {@code resource/subresource}, as RBAC names it. */
  public String rbacResource() {
    return subresource == null ? resource : resource + "/" + subresource;
  }

  /** POST, PUT, PATCH or DELETE that is not a dry run. */
  public boolean mutating() {
    return !dryRun && !method.equals("GET") && !method.equals("HEAD");
  }

  public static ApiCall parse(String method, String pathAndQuery, String userAgent) {
    String path = pathAndQuery;
    Map<String, String> query = new HashMap<>();
    int q = pathAndQuery.indexOf('?');
    if (q >= 0) {
      path = pathAndQuery.substring(0, q);
      for (String kv : pathAndQuery.substring(q + 1).split("&")) {
        int eq = kv.indexOf('=');
        if (eq > 0) {
          query.put(kv.substring(0, eq), URLDecoder.decode(kv.substring(eq + 1), StandardCharsets.UTF_8));
        }
      }
    }
    String[] parts = path.replaceFirst("^/", "").split("/");
    int i;
    String group;
    if (parts[0].equals("api")) {
      group = "";
      i = 2;
    } else if (parts[0].equals("apis") && parts.length >= 3) {
      group = parts[1];
      i = 3;
    } else {
      return new ApiCall(method, method.toLowerCase(), "", path, null, null, null, false, userAgent, pathAndQuery);
    }
    String namespace = null;
    if (i + 1 < parts.length && parts[i].equals("namespaces") && i + 2 < parts.length) {
      namespace = parts[i + 1];
      i += 2;
    }
    String resource = i < parts.length ? parts[i] : "";
    String name = i + 1 < parts.length ? parts[i + 1] : null;
    String sub = i + 2 < parts.length ? parts[i + 2] : null;
    boolean watch = "true".equals(query.get("watch"));
    String verb = switch (method) {
      case "GET" -> watch ? "watch" : name == null ? "list" : "get";
      case "POST" -> "create";
      case "PUT" -> "update";
      case "PATCH" -> "patch";
      case "DELETE" -> name == null ? "deletecollection" : "delete";
      default -> method.toLowerCase();
    };
    return new ApiCall(method, verb, group, resource, sub, namespace, name, "All".equals(query.get("dryRun")), userAgent, pathAndQuery);
  }
}
