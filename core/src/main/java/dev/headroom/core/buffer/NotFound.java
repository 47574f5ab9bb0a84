package dev.headroom.core.buffer;

/** Renders the Kubernetes not-found error text: {@code <plural>[.<group>] "<name>" not found}. */
public final class NotFound {

  private NotFound() {}

  /**
   * The not-found text of the API server; no group suffix for the core group ({@code ""} or null).
   *
   * <p>Examples: {@code podtemplates "x" not found}, {@code replicasets.apps "x" not found}.
   */
  public static String message(String plural, String group, String name) {
    String resource = group == null || group.isEmpty() ? plural : plural + "." + group;
    return resource + " \"" + name + "\" not found";
  }
}
