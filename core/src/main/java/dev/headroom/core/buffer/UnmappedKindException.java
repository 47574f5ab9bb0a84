package dev.headroom.core.buffer;

/**
 * A {@code scalableRef} kind that discovery cannot map to a resource (for example
 * {@code no matches for kind "Deployment" in version "batch/"}): no {@code /scale} GET was made.
 *
 * <p>Spec §3.3: this error follows {@code failed to get scale object: } unwrapped, while a failed {@code /scale}
 * GET gets {@code failed to get scale sub resource: } in between. {@link BufferClusterView#scale} adapters throw
 * this type for the first case and a plain {@link ClusterApiException} for the second.
 */
public class UnmappedKindException extends ClusterApiException {
  private static final long serialVersionUID = 1L;

  /** Creates the exception; {@code message} is discovery's error text. */
  public UnmappedKindException(String message) {
    super(message);
  }

  /**
   * The text the Cluster Autoscaler's REST mapper gives for a group and kind it does not serve: it asks
   * {@code RESTMapping(groupKind, "")} (one empty version), so apimachinery's {@code NoKindMatchError} names the one
   * searched group/version, {@code "G/"} ({@code ""} for the core group), as CA writes it into the status.
   */
  public static UnmappedKindException noMatches(String apiGroup, String kind) {
    String groupVersion = apiGroup == null || apiGroup.isEmpty() ? "" : apiGroup + "/";
    return new UnmappedKindException("no matches for kind \"" + kind + "\" in version \"" + groupVersion + "\"");
  }
}
