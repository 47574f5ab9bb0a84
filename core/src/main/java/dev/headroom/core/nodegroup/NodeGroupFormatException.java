package dev.headroom.core.nodegroup;

/**
 * A {@code NodeGroup} document that violates the format. {@link #path()} names the offending field
 * ({@code spec.maxSize}, {@code spec.template.status.capacity.cpu}) so a loader that knows line numbers can
 * report {@code FILE:LINE: message}.
 */
public final class NodeGroupFormatException extends RuntimeException {

  private final String path;

  public NodeGroupFormatException(String path, String message) {
    super(message);
    this.path = path;
  }

  /** Dotted path of the field in error; empty for the document itself. */
  public String path() {
    return path;
  }
}
