package dev.headroom.core.nodegroup;

/** Label and annotation keys that tie nodes to node groups. */
public final class NodeGroupLabels {

  /** Label on every node of a group (and its template): the group id. */
  public static final String NODE_GROUP = "headroom.dev/node-group";
  /** Standard hostname label, set per node. */
  public static final String HOSTNAME = "kubernetes.io/hostname";
  /** Standard OS label, defaulted on templates. */
  public static final String OS = "kubernetes.io/os";
  /** Standard architecture label, defaulted on templates. */
  public static final String ARCH = "kubernetes.io/arch";

  private NodeGroupLabels() {}
}
