package dev.headroom.cli;

import dev.headroom.core.autoscaler.AutoscalerOptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.controller.autoscaling.AutoscalerSettings;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class RunCommandAutoscalerTest {

  @TempDir Path dir;

  private static RunCommand parse(String... args) {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd;
  }

  @Test
  void autoscalerIsOffWithoutACloudProviderAndHasUpstreamDefaultsWithOne() {
    assertThat(parse().autoscalerFlags.enabled()).isFalse();
    AutoscalerSettings s = parse("--cloud-provider=kwok").autoscalerFlags.settings(true, "headroom-system");
    assertThat(s.cloudProvider()).isEqualTo("kwok");
    assertThat(s.options().scanInterval()).isEqualTo(Duration.ofSeconds(10));
    assertThat(s.options().maxNodeProvisionTime()).isEqualTo(Duration.ofMinutes(15));
    assertThat(s.options().expander()).isEqualTo("least-waste");
    assertThat(s.options().maxNodesTotal()).isZero();
    assertThat(s.options().scaleDownEnabled()).isTrue();
    assertThat(s.options().bufferPodInjectionEnabled()).isTrue();
    assertThat(s.nodeDeleteDelayAfterTaint()).isEqualTo(Duration.ofSeconds(5));
    AutoscalerSettings t = parse("--cloud-provider=clusterapi", "--scan-interval=30s", "--expander=price,least-waste",
        "--max-nodes-total=50", "--scale-down-enabled=false", "--max-node-provision-time=5m",
        "--capacity-buffer-pod-injection-enabled=false").autoscalerFlags.settings(false, "x");
    assertThat(t.options().scanInterval()).isEqualTo(Duration.ofSeconds(30));
    assertThat(t.options().expander()).isEqualTo("price,least-waste");
    assertThat(t.options().maxNodesTotal()).isEqualTo(50);
    assertThat(t.options().scaleDownEnabled()).isFalse();
    assertThat(t.options().maxNodeProvisionTime()).isEqualTo(Duration.ofMinutes(5));
    assertThat(t.options().bufferPodInjectionEnabled()).isFalse();
  }

  @Test
  void upstreamNamesBareBooleansAndTheScaleDownOptions() {
    RunCommand cmd = parse("--cloud-provider=kwok", "--scale-down-enabled", "--ignore-daemonsets-utilization",
        "--skip-nodes-with-local-storage=false", "--scale-down-unready-time=1h", "--scale-down-delay-after-delete=30s",
        "--scale-down-delay-after-failure=1d", "--scale-down-utilization-threshold=0.7", "--max-scale-down-parallelism=3",
        "--max-drain-parallelism=2", "--max-graceful-termination-sec=30", "--scale-down-non-empty-candidates-count=5",
        "--leader-elect-resource-namespace=ops", "--leader-elect-resource-name=lock");
    AutoscalerSettings s = cmd.autoscalerFlags.settings(true, "ops");
    assertThat(s.options().scaleDownEnabled()).isTrue();
    assertThat(s.options().ignoreDaemonSetsUtilization()).isTrue();
    assertThat(s.options().skipNodesWithLocalStorage()).isFalse();
    assertThat(s.options().scaleDownUnreadyTime()).isEqualTo(Duration.ofHours(1));
    assertThat(s.options().scaleDownDelayAfterDelete()).isEqualTo(Duration.ofSeconds(30));
    assertThat(s.options().scaleDownDelayAfterFailure()).isEqualTo(Duration.ofDays(1));
    assertThat(s.options().scaleDownUtilizationThreshold()).isEqualTo(0.7);
    assertThat(s.options().maxScaleDownParallelism()).isEqualTo(3);
    assertThat(s.options().maxDrainParallelism()).isEqualTo(2);
    assertThat(s.options().scaleDownNonEmptyCandidatesCount()).isEqualTo(5);
    assertThat(s.maxGracefulTerminationSec()).isEqualTo(30);
    assertThat(cmd.options().lease().namespace()).isEqualTo("ops");
    assertThat(cmd.options().lease().name()).isEqualTo("lock");
    RunCommand old = parse("--leader-elect-lease-namespace=legacy", "--leader-elect-lease-name=old");
    assertThat(old.options().lease().namespace()).isEqualTo("legacy");
    assertThat(old.options().lease().name()).isEqualTo("old");
    assertThat(parse().autoscalerFlags.settings(true, "x").options())
        .isEqualTo(dev.headroom.core.autoscaler.AutoscalerOptions.builder().set(AutoscalerOptions.BUFFER_POD_INJECTION_ENABLED, true).build());
  }

  @Test
  void bypassedSchedulerNamesReachTheAutoscalerOptions() {
    assertThat(parse("--cloud-provider=kwok").autoscalerFlags.settings(true, "x").options().bypassedSchedulers()).isEmpty();
    AutoscalerSettings s = parse("--cloud-provider=kwok", "--bypassed-scheduler-names=volcano,kai-scheduler")
        .autoscalerFlags.settings(true, "x");
    assertThat(s.options().bypassedSchedulers()).containsExactlyInAnyOrder("volcano", "kai-scheduler");
  }

  @Test
  void aMalformedNodeGroupFileIsAFileLineErrorAndExitCodeOne() throws Exception {
    Path kubeconfig = dir.resolve("kubeconfig");
    Files.writeString(kubeconfig, """
        apiVersion: v1
        kind: Config
        clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
        contexts: [{name: c, context: {cluster: c, user: u}}]
        current-context: c
        users: [{name: u, user: {token: t}}]
        """);
    Path groups = dir.resolve("groups.yaml");
    Files.writeString(groups, """
        apiVersion: headroom.dev/v1alpha1
        kind: NodeGroup
        metadata:
          name: general
        spec:
          maxSize: many
          template:
            status:
              capacity: {cpu: "4", memory: 16Gi}
        """);
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("run", "--kubeconfig", kubeconfig.toString(), "--log-format", "text", "--leader-elect=false",
        "--http-port=0", "--cloud-provider=kwok", "--node-groups", groups.toString());
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith(groups + ":6: ").contains("spec.maxSize").doesNotContain("Exception");
  }

  @Test
  void anUnknownProviderIsRejected() throws Exception {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setErr(new PrintWriter(err));
    Path kubeconfig = dir.resolve("kc");
    Files.writeString(kubeconfig, "apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\n"
        + "contexts: [{name: c, context: {cluster: c, user: u}}]\ncurrent-context: c\nusers: [{name: u, user: {token: t}}]\n");
    int code = cl.execute("run", "--kubeconfig", kubeconfig.toString(), "--log-format", "text", "--leader-elect=false", "--cloud-provider=aws");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).contains("unknown --cloud-provider \"aws\"");
  }
}
