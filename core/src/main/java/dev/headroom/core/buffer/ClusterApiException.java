package dev.headroom.core.buffer;

/**
 * A failed call to the cluster (an API or cache error), carrying the error text exactly as Kubernetes would
 * render it (for example {@code the server could not find the requested resource}).
 *
 * <p>Core never synthesises transport errors; it only wraps their {@link #getMessage()} into the messages of
 * spec §3.7. A missing object is not an exception for lookups that return {@link java.util.Optional}: core
 * renders the not-found text itself ({@link NotFound}).
 */
public class ClusterApiException extends Exception {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} is the error text that ends up in conditions. */
  public ClusterApiException(String message) {
    super(message);
  }

  /** Creates the exception with a cause kept for logs only. */
  public ClusterApiException(String message, Throwable cause) {
    super(message, cause);
  }
}
