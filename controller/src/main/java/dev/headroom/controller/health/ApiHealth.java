package dev.headroom.controller.health;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.http.AsyncBody;
import io.fabric8.kubernetes.client.http.HttpClient;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.HttpResponse;
import io.fabric8.kubernetes.client.http.Interceptor;
import io.fabric8.kubernetes.client.informers.ExceptionHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.net.ConnectException;
import java.net.URI;
import java.time.Duration;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What is wrong between this process and the API server right now, as one line per problem: a missing permission
 * ({@code missing permission: list pods (cluster-wide) for system:serviceaccount:headroom-system:headroom}), an
 * unreachable server, a resource the server does not serve, an informer that cannot list or watch. It learns from
 * two places: the HTTP client (an {@link Interceptor} that sees every response and connection failure, so a 403
 * on any verb is named and a later success of the same request clears it) and the informers (an
 * {@link ExceptionHandler} that keeps them retrying with their exponential backoff instead of stopping). Each
 * problem is logged once when it appears (WARN, no stack trace) and once when it clears (INFO); while any exists the
 * process is not ready. An informer that stops for an unexpected reason (an object it cannot read) is logged with
 * its stack trace once and makes the process not live.
 */
public final class ApiHealth {
  private static final Logger LOG = LoggerFactory.getLogger(ApiHealth.class);
  /** kube-apiserver's RBAC denial: {@code pods is forbidden: User "u" cannot list resource "pods" in API group "" at the cluster scope}. */
  private static final Pattern FORBIDDEN = Pattern.compile(
      "User \"([^\"]*)\" cannot (\\S+) resource \"([^\"]+)\" in API group \"([^\"]*)\"(?: in the namespace \"([^\"]+)\"| at the cluster scope)?");
  private static final Pattern USER = Pattern.compile("User \"([^\"]*)\"");
  static final String UNREACHABLE = "unreachable";
  static final String WATCHES_DOWN = "watches down";
  /** One line for any number of dropped watches (which ones is logged at DEBUG). */
  public static final String WATCHES_DOWN_MESSAGE = "the watches of the API server dropped; the informers reconnect with backoff";
  /** How long a synced informer may be without its watch (a routine re-watch takes milliseconds) before it counts. */
  public static final Duration DEFAULT_WATCH_GRACE = Duration.ofSeconds(5);

  /** One current problem; {@code logged} when its appearance was logged at WARN. */
  public record Problem(String key, String message, long sequence, boolean logged) {}

  /** A problem that comes back this soon after it was last announced is not announced again (no flapping lines). */
  static final Duration REPEAT_QUIET = Duration.ofSeconds(60);
  private final Map<String, Long> announced = new ConcurrentHashMap<>();

  private record Tracked(String what, SharedIndexInformer<?> informer) {}

  private final String user;
  private final Map<String, Problem> problems = new ConcurrentHashMap<>();
  /** Problem keys raised by each tracked informer; cleared once it watches again. */
  private final Map<SharedIndexInformer<?>, List<String>> raisedBy = new ConcurrentHashMap<>();
  private final List<Tracked> tracked = new CopyOnWriteArrayList<>();
  private final Map<String, String> dead = new ConcurrentHashMap<>();
  private final List<Runnable> recoveryListeners = new CopyOnWriteArrayList<>();
  private final AtomicLong sequence = new AtomicLong();
  private final Map<SharedIndexInformer<?>, Long> notWatchingSince = new ConcurrentHashMap<>();
  private final Duration watchGrace;
  private final LongSupplier nanoTime;
  private volatile boolean closing;

  /** @param user who the client is, for the permission lines (e.g. {@code system:serviceaccount:ns:name}) */
  public ApiHealth(String user) {
    this(user, DEFAULT_WATCH_GRACE, System::nanoTime);
  }

  /**
   * @param watchGrace how long a synced informer may be without a watch before the process reports it
   * @param nanoTime the clock of that grace
   */
  public ApiHealth(String user, Duration watchGrace, LongSupplier nanoTime) {
    this.user = user == null || user.isBlank() ? "this client's user" : user;
    this.watchGrace = watchGrace;
    this.nanoTime = nanoTime;
  }

  /**
   * Who {@code config} authenticates as, for the permission lines: the subject of a service-account token
   * ({@code system:serviceaccount:NS:NAME}), else the configured user name, else the common name of the client
   * certificate (what the API server takes as the user name), else null.
   */
  public static String userOf(io.fabric8.kubernetes.client.Config config) {
    for (String token : new String[] {config.getAutoOAuthToken(), config.getOauthToken()}) {
      if (token == null) {
        continue;
      }
      String[] parts = token.split("\\.");
      if (parts.length == 3) {
        try {
          String payload = new String(java.util.Base64.getUrlDecoder().decode(parts[1]), java.nio.charset.StandardCharsets.UTF_8);
          Matcher m = Pattern.compile("\"sub\"\\s*:\\s*\"([^\"]+)\"").matcher(payload);
          if (m.find()) {
            return m.group(1);
          }
        } catch (IllegalArgumentException notBase64) {
          // not a JWT
        }
      }
    }
    if (config.getUsername() != null && !config.getUsername().isBlank()) {
      return config.getUsername();
    }
    return clientCertificateUser(config);
  }

  /** The CN of the client certificate in {@code config} (inline data or a file), or null. */
  static String clientCertificateUser(io.fabric8.kubernetes.client.Config config) {
    try {
      byte[] pem;
      if (config.getClientCertData() != null && !config.getClientCertData().isBlank()) {
        pem = java.util.Base64.getMimeDecoder().decode(config.getClientCertData().strip());
      } else if (config.getClientCertFile() != null && !config.getClientCertFile().isBlank()) {
        pem = java.nio.file.Files.readAllBytes(java.nio.file.Path.of(config.getClientCertFile()));
      } else {
        return null;
      }
      java.security.cert.X509Certificate cert = (java.security.cert.X509Certificate) java.security.cert.CertificateFactory
          .getInstance("X.509").generateCertificate(new java.io.ByteArrayInputStream(pem));
      javax.naming.ldap.LdapName dn = new javax.naming.ldap.LdapName(cert.getSubjectX500Principal().getName());
      for (javax.naming.ldap.Rdn rdn : dn.getRdns()) {
        if (rdn.getType().equalsIgnoreCase("CN")) {
          return rdn.getValue().toString();
        }
      }
      return null;
    } catch (java.io.IOException | java.security.cert.CertificateException | javax.naming.InvalidNameException
        | IllegalArgumentException | ClassCastException e) {
      return null; // unreadable: the permission lines fall back to the user the API server names
    }
  }

  /** What an informer of {@code type} lists: {@code pods (cluster-wide)}, {@code deployments.apps in namespace shop}. */
  public static String describe(Class<? extends io.fabric8.kubernetes.api.model.HasMetadata> type, String namespace) {
    String group = io.fabric8.kubernetes.api.model.HasMetadata.getGroup(type);
    return new ApiRequest("list", group == null ? "" : group, io.fabric8.kubernetes.api.model.HasMetadata.getPlural(type), namespace).qualifiedResource()
        + scope(namespace);
  }

  /** {@code " (cluster-wide)"} or {@code " in namespace NS"}. */
  public static String scope(String namespace) {
    return namespace == null ? " (cluster-wide)" : " in namespace " + namespace;
  }

  /** Installs the response observer on a client about to be built. */
  public void install(HttpClient.Builder builder) {
    builder.addOrReplaceInterceptor("headroom-api-health", new Observer());
  }

  /** Runs {@code r} after problems cleared (the caller re-enqueues work that may have been lost meanwhile). */
  public void onRecovered(Runnable r) {
    recoveryListeners.add(r);
  }

  /**
   * Keeps {@code informer} (not yet started) retrying on every expected failure and reports its problems; call
   * before {@code start()}. {@code what} names what it lists, e.g. {@code pods (cluster-wide)}.
   */
  public <T> SharedIndexInformer<T> track(SharedIndexInformer<T> informer, String what) {
    informer.exceptionHandler((started, t) -> informerFailed(informer, what, t));
    tracked.add(new Tracked(what, informer));
    informer.stopped().whenComplete((v, t) -> {
      tracked.removeIf(x -> x.informer() == informer);
      notWatchingSince.remove(informer);
      List<String> keys = raisedBy.remove(informer);
      if (keys != null) {
        keys.forEach(this::clear);
      }
      if (t != null && !closing) {
        dead.put(what, "the informer for " + what + " stopped: " + oneLine(t));
      }
    });
    return informer;
  }

  /** Marks a deliberate shutdown: informers stopping from now on are not failures. */
  public void closing() {
    closing = true;
  }

  private boolean informerFailed(SharedIndexInformer<?> informer, String what, Throwable t) {
    if (ExceptionHandler.isDeserializationException(t)) {
      LOG.error("the informer for {} cannot read an object and stops: {}", what, oneLine(t), t);
      return false;
    }
    KubernetesClientException k = clientException(t);
    String key;
    if (k != null && k.getCode() == 410) {
      LOG.info("the watch of {} expired (410 Gone); re-listing", what);
      return true;
    }
    if (k != null && k.getCode() == 403) {
      key = forbidden(k, null, what);
    } else if (k != null && k.getCode() == 404) {
      key = raise("informer " + what, "the API server does not serve " + what + " (404 Not Found); retrying with backoff");
    } else if (connectionFailure(t)) {
      key = raise(UNREACHABLE, "cannot reach the API server: " + rootMessage(t) + "; retrying with backoff");
    } else if (k != null && k.getCode() > 0) {
      key = raise("informer " + what, "cannot list/watch " + what + ": " + k.getCode() + " " + statusMessage(k) + "; retrying with backoff");
    } else {
      key = raise("informer " + what, "cannot list/watch " + what + ": " + oneLine(t) + "; retrying with backoff");
      LOG.debug("informer failure for {}", what, t);
    }
    raisedBy.computeIfAbsent(informer, i -> new CopyOnWriteArrayList<>()).add(key);
    return true;
  }

  /** Records a 403 from {@code k} (the Status message names the permission) or, failing that, from the request. */
  private String forbidden(KubernetesClientException k, ApiRequest request, String what) {
    String message = statusMessage(k);
    Matcher m = message == null ? null : FORBIDDEN.matcher(message);
    if (m != null && m.find()) {
      ApiRequest denied = new ApiRequest(m.group(2), m.group(4), m.group(3), m.group(5));
      return permissionMissing(denied, m.group(1));
    }
    if (request != null) {
      return permissionMissing(request, null);
    }
    return raise("informer " + what, "missing permission: list/watch " + what + " for " + userIn(message) + " (" + message + ")");
  }

  private String userIn(String message) {
    Matcher u = message == null ? null : USER.matcher(message);
    return u != null && u.find() ? u.group(1) : user;
  }

  private String permissionMissing(ApiRequest r, String deniedUser) {
    return raise("permission " + r.permission(), "missing permission: " + r.permission() + " for " + (deniedUser != null ? deniedUser : user));
  }

  /** Check-then-announce under one lock: HTTP client threads report the same failure at the same moment. */
  private synchronized String raise(String key, String message) {
    Problem before = problems.get(key);
    if (before == null || !before.message().equals(message)) {
      long now = nanoTime.getAsLong();
      Long last = announced.get(message);
      boolean announce = last == null || now - last > REPEAT_QUIET.toNanos();
      problems.put(key, new Problem(key, message, before == null ? sequence.incrementAndGet() : before.sequence(), announce));
      if (announce) {
        announced.put(message, now);
        LOG.warn(message);
      } else {
        LOG.debug("again: {}", message);
      }
    }
    return key;
  }

  private synchronized void clear(String key) {
    Problem p = problems.remove(key);
    if (p != null) {
      if (p.logged()) {
        LOG.info("resolved: {}", p.message());
      } else {
        LOG.debug("resolved again: {}", p.message());
      }
      if (problems.isEmpty()) {
        recoveryListeners.forEach(Runnable::run);
      }
    }
  }

  /**
   * Clears the problems of informers that list and watch again, and reports synced informers whose watch has been
   * down for longer than the grace (a dropped connection the watch manager keeps re-establishing on its own); call
   * periodically and before reporting.
   */
  public void sweep() {
    long now = nanoTime.getAsLong();
    String down = null;
    for (Tracked t : tracked) {
      SharedIndexInformer<?> i = t.informer();
      if (i.isWatching()) {
        notWatchingSince.remove(i);
        List<String> keys = raisedBy.remove(i);
        if (keys != null) {
          keys.forEach(this::clear);
        }
      } else if (i.hasSynced() && i.isRunning()) {
        long since = notWatchingSince.computeIfAbsent(i, k -> now);
        if (down == null && now - since > watchGrace.toNanos()) {
          down = t.what();
        }
      }
    }
    if (down == null) {
      clear(WATCHES_DOWN);
    } else if (!problems.containsKey(WATCHES_DOWN)) {
      LOG.debug("the watch of {} is down", down);
      raise(WATCHES_DOWN, WATCHES_DOWN_MESSAGE);
    }
  }

  /** The oldest current problem, if any (readiness reason). */
  public Optional<String> problem() {
    sweep();
    return problems.values().stream().min(Comparator.comparingLong(Problem::sequence)).map(Problem::message);
  }

  /** Every current problem, oldest first. */
  public List<String> problems() {
    sweep();
    List<Problem> all = new ArrayList<>(problems.values());
    all.sort(Comparator.comparingLong(Problem::sequence));
    return all.stream().map(Problem::message).toList();
  }

  /** Why the process is not live (an informer stopped for good), if it is not. */
  public Optional<String> deadInformer() {
    return dead.values().stream().sorted().findFirst();
  }

  // ---- HTTP responses ----

  private void responded(String method, URI uri, int code) {
    clear(UNREACHABLE);
    Optional<ApiRequest> r = ApiRequest.of(method, uri);
    if (r.isEmpty()) {
      return;
    }
    String key = "permission " + r.get().permission();
    if (code == 403) {
      permissionMissing(r.get(), null);
    } else if ((code >= 200 && code < 300) || code == 101) {
      if (problems.containsKey(key)) {
        clear(key);
      }
    }
  }

  private final class Observer implements Interceptor {
    @Override
    public void after(HttpRequest request, HttpResponse<?> response, AsyncBody.Consumer<List<ByteBuffer>> consumer) {
      responded(request.method(), request.uri(), response.code());
    }

    @Override
    public void afterConnectionFailure(HttpRequest request, Throwable failure) {
      raise(UNREACHABLE, "cannot reach the API server at " + server(request.uri()) + ": " + rootMessage(failure) + "; retrying with backoff");
    }
  }

  private static String server(URI uri) {
    return uri.getScheme() + "://" + uri.getAuthority();
  }

  // ---- exception rendering ----

  private static KubernetesClientException clientException(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof KubernetesClientException k && (k.getCode() > 0 || !(c instanceof WatcherException))) {
        return k;
      }
      if (c instanceof WatcherException w && w.asClientException() != null && w.asClientException().getCode() > 0) {
        return w.asClientException();
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return null;
  }

  private static boolean connectionFailure(Throwable t) {
    for (Throwable c = t; c != null; c = c.getCause()) {
      if (c instanceof ConnectException || c instanceof java.nio.channels.UnresolvedAddressException
          || c instanceof java.net.UnknownHostException || c instanceof java.net.SocketException
          || c instanceof java.io.EOFException || c.getClass().getName().endsWith("ConnectTimeoutException")) {
        return true;
      }
      if (c.getCause() == c) {
        break;
      }
    }
    return false;
  }

  private static String statusMessage(KubernetesClientException k) {
    if (k.getStatus() != null && k.getStatus().getMessage() != null && !k.getStatus().getMessage().isBlank()) {
      return k.getStatus().getMessage();
    }
    return oneLine(k);
  }

  private static String rootMessage(Throwable t) {
    Throwable root = t;
    while (root.getCause() != null && root.getCause() != root) {
      root = root.getCause();
    }
    String m = root.getMessage();
    return m == null || m.isBlank() ? root.getClass().getSimpleName() : firstLine(m);
  }

  /** The exception's message on one line (fabric8 messages may span lines). */
  public static String oneLine(Throwable t) {
    String m = t.getMessage();
    return t.getClass().getSimpleName() + ": " + (m == null ? "" : firstLine(m));
  }

  private static String firstLine(String s) {
    int nl = s.indexOf('\n');
    return (nl < 0 ? s : s.substring(0, nl)).strip();
  }
}
