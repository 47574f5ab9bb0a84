package dev.headroom.core.autoscaler;

/** One Kubernetes-style event emitted by an iteration. */
public record EventRecord(ObjectRef subject, String type, String reason, String message) {

  /** {@code Normal} event type. */
  public static final String NORMAL = "Normal";
  /** {@code Warning} event type. */
  public static final String WARNING = "Warning";
}
