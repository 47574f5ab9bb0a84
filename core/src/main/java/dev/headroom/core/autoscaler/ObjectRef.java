package dev.headroom.core.autoscaler;

/** The object an event is about. */
public record ObjectRef(String kind, String namespace, String name, String uid) {

  /**
   * The subject of the autoscaler's cluster-wide status events (scale-up of a group, time-outs, scale-down, cluster
   * health). Upstream records them on its status ConfigMap; Headroom writes no status ConfigMap, so the runtime
   * records them on the Namespace object it runs in (a subject that always exists), whose name it fills in.
   */
  public static final ObjectRef STATUS = new ObjectRef("Namespace", "", "", "");
}
