package dev.headroom.controller.http;

import io.fabric8.kubernetes.api.model.authentication.TokenReview;
import io.fabric8.kubernetes.api.model.authentication.TokenReviewBuilder;
import io.fabric8.kubernetes.api.model.authentication.UserInfo;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReview;
import io.fabric8.kubernetes.api.model.authorization.v1.SubjectAccessReviewBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.HexFormat;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * Authentication and authorization of a metrics scrape through the API server, as controller-runtime's secure
 * metrics filter does: a {@code TokenReview} of the bearer token, then a {@code SubjectAccessReview} of the user it
 * names for the non-resource URL (the request path, {@code /metrics}) and the verb (the lower-cased method, {@code
 * get}). Decisions (not errors) are kept for {@link #DEFAULT_TTL} per token and path, so a scrape every 30 s costs two
 * API requests a minute at most.
 */
public final class ApiServerAuthorizer implements MetricsServer.Authorizer {
  /** How long a decision is reused. */
  public static final Duration DEFAULT_TTL = Duration.ofMinutes(1);

  private final KubernetesClient client;
  private final long ttlNanos;
  private final LongSupplier nanoTime;
  private final Map<String, Cached> cache = new ConcurrentHashMap<>();

  private record Cached(MetricsServer.Decision decision, long at) {}

  public ApiServerAuthorizer(KubernetesClient client, Duration ttl, LongSupplier nanoTime) {
    this.client = client;
    this.ttlNanos = ttl.toNanos();
    this.nanoTime = nanoTime;
  }

  @Override
  public MetricsServer.Decision check(String token, String verb, String path) {
    String key = sha256(token) + " " + verb + " " + path;
    long now = nanoTime.getAsLong();
    Cached c = cache.get(key);
    if (c != null && now - c.at() < ttlNanos) {
      return c.decision();
    }
    MetricsServer.Decision d;
    try {
      d = review(token, verb, path);
    } catch (KubernetesClientException e) {
      return new MetricsServer.Decision.Error("the API server did not answer the review: " + (e.getCode() > 0 ? e.getCode() + " " : "")
          + firstLine(e.getMessage()));
    }
    if (cache.size() > 1000) {
      cache.clear();
    }
    cache.put(key, new Cached(d, now));
    return d;
  }

  private MetricsServer.Decision review(String token, String verb, String path) {
    TokenReview tr = client.authentication().v1().tokenReviews().create(new TokenReviewBuilder().withNewSpec().withToken(token).endSpec().build());
    if (tr.getStatus() == null || !Boolean.TRUE.equals(tr.getStatus().getAuthenticated()) || tr.getStatus().getUser() == null) {
      String why = tr.getStatus() == null || tr.getStatus().getError() == null ? "the token is not valid" : tr.getStatus().getError();
      return new MetricsServer.Decision.Unauthenticated(why);
    }
    UserInfo u = tr.getStatus().getUser();
    SubjectAccessReview sar = client.authorization().v1().subjectAccessReview().create(new SubjectAccessReviewBuilder().withNewSpec()
        .withUser(u.getUsername()).withGroups(u.getGroups()).withUid(u.getUid()).withExtra(u.getExtra())
        .withNewNonResourceAttributes().withPath(path).withVerb(verb).endNonResourceAttributes()
        .endSpec().build());
    if (sar.getStatus() != null && Boolean.TRUE.equals(sar.getStatus().getAllowed())) {
      return new MetricsServer.Decision.Allowed(u.getUsername());
    }
    String reason = sar.getStatus() == null || sar.getStatus().getReason() == null || sar.getStatus().getReason().isEmpty() ? "" : ": " + sar.getStatus().getReason();
    return new MetricsServer.Decision.Forbidden(u.getUsername(), "user \"" + u.getUsername() + "\" may not " + verb + " " + path + reason);
  }

  private static String firstLine(String s) {
    if (s == null) {
      return "";
    }
    int nl = s.indexOf('\n');
    return nl < 0 ? s : s.substring(0, nl);
  }

  private static String sha256(String s) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
