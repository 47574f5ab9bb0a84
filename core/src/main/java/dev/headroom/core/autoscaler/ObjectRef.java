package dev.headroom.core.autoscaler;

/** The object an event is about. */
public record ObjectRef(String kind, String namespace, String name, String uid) {

  /** The status ConfigMap subject ({@code headroom-status}); namespace is filled in by the runtime. */
  public static final ObjectRef STATUS = new ObjectRef("ConfigMap", "", "headroom-status", "");
}
