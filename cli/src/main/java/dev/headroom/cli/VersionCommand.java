package dev.headroom.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code headroom version}: the same lines as {@code headroom --version}. */
@Command(name = "version", description = "Print the version, git commit, build date and Java runtime.",
    mixinStandardHelpOptions = true, versionProvider = VersionCommand.Provider.class)
final class VersionCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    for (String line : BuildInfo.current().lines()) {
      out.println(line);
    }
    out.flush();
    return 0;
  }

  /** picocli's {@code --version} text, read from the embedded build info. */
  static final class Provider implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
      return BuildInfo.current().lines();
    }
  }
}
