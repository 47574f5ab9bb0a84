package dev.headroom.controller.testing;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Status;
import io.fabric8.kubernetes.api.model.StatusBuilder;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Predicate;

/**
 * Wraps the CRUD dispatcher: records every request as an {@link ApiCall}, injects faults on matching requests,
 * and answers {@code POST pods?dryRun=All} like an API server would (defaulted pod back, nothing stored), or refuses
 * it like an API server without the RBAC to create pods.
 */
public final class RecordingDispatcher extends Dispatcher {
  private final KubernetesCrudDispatcher crud;
  private final List<ApiCall> calls = new CopyOnWriteArrayList<>();
  private final List<Fault> faults = new CopyOnWriteArrayList<>();
  private volatile boolean refuseDryRun;
  private volatile Predicate<ApiCall> denied = c -> false;
  private volatile String deniedUser = "";

  private static final class Fault {
    final Predicate<ApiCall> matches;
    final int code;
    int remaining;

    Fault(Predicate<ApiCall> matches, int code, int times) {
      this.matches = matches;
      this.code = code;
      this.remaining = times;
    }
  }

  public RecordingDispatcher(KubernetesCrudDispatcher crud) {
    this.crud = crud;
  }

  /** Answers the next {@code times} requests matching {@code matches} with HTTP {@code code}. */
  public void failNext(Predicate<ApiCall> matches, int code, int times) {
    faults.add(new Fault(matches, code, times));
  }

  /**
   * Answers every request matching {@code calls} with kube-apiserver's RBAC denial for {@code user} (403 with
   * {@code RESOURCE is forbidden: User "USER" cannot VERB resource ...}), until {@link #allowAll()}.
   */
  public void deny(Predicate<ApiCall> calls, String user) {
    this.deniedUser = user;
    this.denied = calls;
  }

  /** Lifts {@link #deny}. */
  public void allowAll() {
    this.denied = c -> false;
  }

  /** Answers requests matching {@code matches} with 201 and the JSON {@code body} makes of the request body. */
  public void answer(Predicate<ApiCall> matches, java.util.function.Function<String, String> body) {
    answers.add(new Answer(matches, body));
  }

  private record Answer(Predicate<ApiCall> matches, java.util.function.Function<String, String> body) {}

  private final List<Answer> answers = new CopyOnWriteArrayList<>();

  /** Makes dry-run pod creation fail with 403 as if RBAC denied {@code create pods}. */
  public void refuseDryRun(boolean refuse) {
    this.refuseDryRun = refuse;
  }

  public List<ApiCall> calls() {
    return List.copyOf(calls);
  }

  public void clearCalls() {
    calls.clear();
  }

  @Override
  public MockResponse dispatch(RecordedRequest request) {
    ApiCall call = ApiCall.parse(request.getMethod(), request.getPath(), request.getHeader("User-Agent"));
    calls.add(call);
    if (denied.test(call)) {
      String scope = call.namespace() == null ? "at the cluster scope" : "in the namespace \"" + call.namespace() + "\"";
      return status(403, "Forbidden", call.rbacResource() + " is forbidden: User \"" + deniedUser + "\" cannot " + call.verb()
          + " resource \"" + call.rbacResource() + "\" in API group \"" + call.group() + "\" " + scope);
    }
    for (Fault f : faults) {
      synchronized (f) {
        if (f.remaining > 0 && f.matches.test(call)) {
          f.remaining--;
          return status(f.code, f.code == 409 ? "Conflict" : "InternalError",
              f.code == 409 ? "Operation cannot be fulfilled on " + call.resource() + " \"" + call.name() + "\": the object has been modified; please apply your changes to the latest version and try again"
                  : "injected failure");
        }
      }
    }
    for (Answer a : answers) {
      if (a.matches().test(call)) {
        return new MockResponse().setResponseCode(201).setBody(a.body().apply(request.getBody().readUtf8()));
      }
    }
    if (call.dryRun() && call.method().equals("POST") && call.resource().equals("pods")) {
      if (refuseDryRun) {
        return status(403, "Forbidden", "pods is forbidden: User \"system:serviceaccount:headroom:headroom\" cannot create resource \"pods\" in API group \"\" in the namespace \"" + call.namespace() + "\"");
      }
      Pod pod = Serialization.unmarshal(request.getBody().readUtf8(), Pod.class);
      admit(pod, call.namespace());
      return new MockResponse().setResponseCode(201).setBody(Serialization.asJson(pod));
    }
    return crud.dispatch(request);
  }

  /** What admission does in the dry run: name from generateName, uid, and limits copied into missing requests. */
  private static void admit(Pod pod, String namespace) {
    pod.getMetadata().setName(pod.getMetadata().getGenerateName() + UUID.randomUUID().toString().substring(0, 5));
    pod.getMetadata().setNamespace(namespace);
    pod.getMetadata().setUid(UUID.randomUUID().toString());
    List<Container> all = new ArrayList<>(pod.getSpec().getContainers() == null ? List.of() : pod.getSpec().getContainers());
    if (pod.getSpec().getInitContainers() != null) {
      all.addAll(pod.getSpec().getInitContainers());
    }
    for (Container c : all) {
      if (c.getResources() == null || c.getResources().getLimits() == null) {
        continue;
      }
      Map<String, Quantity> requests = c.getResources().getRequests() == null ? new HashMap<>() : new HashMap<>(c.getResources().getRequests());
      c.getResources().getLimits().forEach(requests::putIfAbsent);
      c.getResources().setRequests(requests);
    }
    if (pod.getSpec().getRestartPolicy() == null) {
      pod.getSpec().setRestartPolicy("Always");
    }
  }

  private static MockResponse status(int code, String reason, String message) {
    Status s = new StatusBuilder().withApiVersion("v1").withKind("Status").withStatus("Failure").withCode(code).withReason(reason).withMessage(message).build();
    return new MockResponse().setResponseCode(code).setBody(Serialization.asJson(s));
  }
}
