package dev.headroom.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A kwok controller of the calibration's own, beside the bed's: it manages only the nodes annotated
 * {@code kwok.x-k8s.io/node=calibration} (the bed's kwok takes {@code =fake}), with stages whose delays come from
 * annotations the harness sets: a node turns Ready at the instant in {@link #READY_AT}, which the harness writes
 * when it sees the node created ({@link #NODE_DELAY} later: the scenario's {@code provisioningDelay}, scaled; an
 * instant, not a delay, since kwok starts a delay again from every update of the node, and the node-lifecycle
 * controller updates a new node within seconds), a pod Ready {@link #POD_STARTUP} after it is bound ({@code startupTime}), a Job's
 * pod completes {@link #RUN_TIME} after it is Ready ({@code runTime}).
 */
final class CalibrationKwok implements AutoCloseable {
  static final String KWOK_VALUE = "calibration";
  static final String NODE_DELAY = "calibration.headroom.dev/node-delay";
  static final String READY_AT = "calibration.headroom.dev/ready-at";
  static final String POD_STARTUP = "calibration.headroom.dev/pod-startup";
  static final String RUN_TIME = "calibration.headroom.dev/run-time";

  private final Process process;

  private CalibrationKwok(Process process) {
    this.process = process;
  }

  static CalibrationKwok start(TestBed bed) throws IOException {
    Path bin = Path.of(Scripts.run(bed.root(), bed.scriptEnv(), Duration.ofMinutes(5), bed.root().resolve("e2e/cluster").toString(), "bin").strip());
    Path stages = bed.out().resolve("calibration-kwok-stages.yaml");
    Files.writeString(stages, STAGES);
    Path log = bed.out().resolve("calibration-kwok.log");
    List<String> cmd = List.of(bin.resolve("kwok").toString(), "--kubeconfig=" + bed.kubeconfig(), "--config=" + stages,
        "--manage-all-nodes=false", "--manage-nodes-with-annotation-selector=kwok.x-k8s.io/node=" + KWOK_VALUE,
        "--server-address=127.0.0.1:" + HeadroomProcess.freePort());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new CalibrationKwok(p);
  }

  void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("calibration kwok exited with " + process.exitValue());
    }
  }

  @Override
  public void close() {
    process.destroy();
    try {
      if (!process.waitFor(10, TimeUnit.SECONDS)) {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
    }
  }

  /** The stages: kwok's own Stage API, with delays read from the annotations above. */
  static final String STAGES = """
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: calibration-node-ready
      spec:
        resourceRef: {apiGroup: v1, kind: Node}
        selector:
          matchExpressions:
          - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
            operator: 'NotIn'
            values: ['True']
        delay:
          durationMilliseconds: 86400000
          durationFrom:
            expressionFrom: '.metadata.annotations["%1$s"]'
        next:
          statusTemplate: |
            {{ $now := Now }}
            conditions:
            - lastHeartbeatTime: {{ $now | Quote }}
              lastTransitionTime: {{ $now | Quote }}
              message: kwok (calibration) node is ready
              reason: KubeletReady
              status: "True"
              type: Ready
            allocatable:
            {{ YAML .status.allocatable 1 }}
            capacity:
            {{ YAML .status.capacity 1 }}
            phase: Running
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: calibration-node-heartbeat
      spec:
        resourceRef: {apiGroup: v1, kind: Node}
        selector:
          matchExpressions:
          - key: '.status.phase'
            operator: 'In'
            values: ['Running']
          - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
            operator: 'In'
            values: ['True']
        delay:
          durationMilliseconds: 15000
          jitterDurationMilliseconds: 20000
        next:
          statusTemplate: |
            {{ $now := Now }}
            conditions:
            - lastHeartbeatTime: {{ $now | Quote }}
              lastTransitionTime: {{ or .metadata.creationTimestamp $now | Quote }}
              message: kwok (calibration) node is ready
              reason: KubeletReady
              status: "True"
              type: Ready
        immediateNextStage: true
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: calibration-pod-ready
      spec:
        resourceRef: {apiGroup: v1, kind: Pod}
        selector:
          matchExpressions:
          - key: '.metadata.deletionTimestamp'
            operator: 'DoesNotExist'
          - key: '.status.phase'
            operator: 'In'
            values: ['Pending']
          - key: '.status.conditions.[] | select( .type == "Ready" ) | .status'
            operator: 'NotIn'
            values: ['True']
        delay:
          durationMilliseconds: 0
          durationFrom:
            expressionFrom: '.metadata.annotations["%2$s"]'
        next:
          statusTemplate: |
            {{ $now := Now }}
            conditions:
            - lastTransitionTime: {{ $now | Quote }}
              status: "True"
              type: Initialized
            - lastTransitionTime: {{ $now | Quote }}
              status: "True"
              type: Ready
            - lastTransitionTime: {{ $now | Quote }}
              status: "True"
              type: ContainersReady
            containerStatuses:
            {{ range .spec.containers }}
            - image: {{ .image | Quote }}
              name: {{ .name | Quote }}
              ready: true
              restartCount: 0
              state:
                running:
                  startedAt: {{ $now | Quote }}
            {{ end }}
            phase: Running
            startTime: {{ $now | Quote }}
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: calibration-pod-complete
      spec:
        resourceRef: {apiGroup: v1, kind: Pod}
        selector:
          matchExpressions:
          - key: '.metadata.deletionTimestamp'
            operator: 'DoesNotExist'
          - key: '.status.phase'
            operator: 'In'
            values: ['Running']
          - key: '.metadata.ownerReferences.[].kind'
            operator: 'In'
            values: ['Job']
        delay:
          durationMilliseconds: 0
          durationFrom:
            expressionFrom: '.metadata.annotations["%3$s"]'
        next:
          statusTemplate: |
            {{ $now := Now }}
            containerStatuses:
            {{ range .spec.containers }}
            - image: {{ .image | Quote }}
              name: {{ .name | Quote }}
              ready: false
              restartCount: 0
              started: false
              state:
                terminated:
                  exitCode: 0
                  finishedAt: {{ $now | Quote }}
                  reason: Completed
                  startedAt: {{ $now | Quote }}
            {{ end }}
            phase: Succeeded
      ---
      apiVersion: kwok.x-k8s.io/v1alpha1
      kind: Stage
      metadata:
        name: calibration-pod-delete
      spec:
        resourceRef: {apiGroup: v1, kind: Pod}
        selector:
          matchExpressions:
          - key: '.metadata.deletionTimestamp'
            operator: 'Exists'
        next:
          delete: true
      """.formatted(READY_AT, POD_STARTUP, RUN_TIME);
}
