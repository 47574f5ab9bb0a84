package dev.headroom.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A second instance of the bed's real kube-scheduler for the calibration's pods ({@code spec.schedulerName:
 * headroom-calibration}), differing from the bed's only in its pod backoff: 1 s initial and 1 s at most, where the
 * default is 1 s doubling to 10 s. The backoff is real time: compressed eight times, the default would become 8 to 80
 * seconds of scenario time (a pod that failed a few attempts sits out a node that just turned Ready while newer pods
 * take it), which no cluster at full speed has; 1 s is the smallest the configuration takes (whole seconds).
 */
final class CalibrationScheduler implements AutoCloseable {
  static final String NAME = "headroom-calibration";

  private final Process process;

  private CalibrationScheduler(Process process) {
    this.process = process;
  }

  static CalibrationScheduler start(TestBed bed) throws IOException {
    Path bin = Path.of(Scripts.run(bed.root(), bed.scriptEnv(), Duration.ofMinutes(5), bed.root().resolve("e2e/cluster").toString(), "bin").strip());
    Path config = bed.out().resolve("calibration-scheduler.yaml");
    Files.writeString(config, """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        clientConnection:
          kubeconfig: %s
          qps: 100
          burst: 200
        leaderElection:
          leaderElect: false
        podInitialBackoffSeconds: 1
        podMaxBackoffSeconds: 1
        profiles:
        - schedulerName: %s
        """.formatted(bed.kubeconfig(), NAME));
    Path log = bed.out().resolve("calibration-scheduler.log");
    List<String> cmd = List.of(bin.resolve("kube-scheduler").toString(), "--config=" + config, "--secure-port=0",
        "--authentication-kubeconfig=" + bed.kubeconfig(), "--authorization-kubeconfig=" + bed.kubeconfig());
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    return new CalibrationScheduler(p);
  }

  void checkAlive() {
    if (!process.isAlive()) {
      throw new IllegalStateException("calibration kube-scheduler exited with " + process.exitValue());
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
}
