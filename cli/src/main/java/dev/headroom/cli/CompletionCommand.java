package dev.headroom.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.AutoComplete;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code headroom completion}: a bash/zsh completion script for every subcommand and option, from picocli. */
@Command(name = "completion", mixinStandardHelpOptions = true,
    description = {"Print a bash/zsh completion script for headroom.",
        "bash: source <(./headroom completion)",
        "zsh:  autoload -U +X bashcompinit && bashcompinit && source <(./headroom completion)"})
final class CompletionCommand implements Callable<Integer> {

  @CommandLine.Spec CommandLine.Model.CommandSpec spec;

  @Override
  public Integer call() {
    CommandLine root = spec.root().commandLine();
    PrintWriter out = spec.commandLine().getOut();
    out.print(AutoComplete.bash(root.getCommandName(), root));
    out.flush();
    return 0;
  }
}
