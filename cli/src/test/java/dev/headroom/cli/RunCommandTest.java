package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.headroom.controller.ControllerOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class RunCommandTest {

  private static RunCommand parse(String... args) {
    RunCommand cmd = new RunCommand();
    new CommandLine(cmd).parseArgs(args);
    return cmd;
  }

  @Test
  void defaultsFollowTheIssue() {
    ControllerOptions o = parse("--leader-elect-identity", "me").options();
    assertThat(o.controllerEnabled()).isTrue();
    assertThat(o.dryRunEnabled()).isTrue();
    assertThat(o.leaderElect()).isTrue();
    assertThat(o.httpPort()).isEqualTo(8080);
    assertThat(o.namespaces()).isEmpty();
    assertThat(o.resyncPeriod()).isEqualTo(Duration.ofMinutes(5));
    assertThat(o.timing().leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    assertThat(o.timing().renewDeadline()).isEqualTo(Duration.ofSeconds(10));
    assertThat(o.timing().retryPeriod()).isEqualTo(Duration.ofSeconds(2));
    assertThat(o.lease().name()).isEqualTo("headroom-buffer-controller");
    assertThat(o.lease().identity()).isEqualTo("me");
    assertThat(o.settings().countPods()).isTrue();
  }

  @Test
  void upstreamFlagNamesTakeExplicitBooleansAndNamespacesRepeat() {
    ControllerOptions o = parse("--capacity-buffer-controller-enabled=false", "--capacity-buffer-pod-dry-run-enabled=false",
        "--leader-elect=false", "--namespace", "a", "--namespace", "b", "--http-port", "9090", "--resync-period", "30s").options();
    assertThat(o.controllerEnabled()).isFalse();
    assertThat(o.dryRunEnabled()).isFalse();
    assertThat(o.leaderElect()).isFalse();
    assertThat(o.namespaces()).containsExactly("a", "b");
    assertThat(o.httpPort()).isEqualTo(9090);
    assertThat(o.resyncPeriod()).isEqualTo(Duration.ofSeconds(30));
  }

  @Test
  void badValuesAreReportedWithoutAStackTrace() {
    assertThatThrownBy(() -> parse("--resync-period", "soon").options()).hasMessage("--resync-period: expected a positive duration such as 30s or 5m, got \"soon\"");
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("run", "--log-format", "xml");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("headroom run: ").doesNotContain("Exception");
  }

  @Test
  void anUnreadableKubeconfigIsAOneLineError() {
    StringWriter err = new StringWriter();
    CommandLine cl = Main.newCommandLine();
    cl.setErr(new PrintWriter(err));
    int code = cl.execute("run", "--kubeconfig", "/nonexistent/kubeconfig", "--log-format", "text");
    assertThat(code).isEqualTo(1);
    assertThat(err.toString()).startsWith("/nonexistent/kubeconfig: cannot read the kubeconfig");
  }
}
