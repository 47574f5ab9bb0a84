package dev.headroom.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Dockerfile builds from what it copies: its build stage's {@code COPY} lines are replayed into a temporary
 * directory (the repository as Docker's build context, filtered by {@code .dockerignore}), and that directory must
 * hold every module and file the Maven reactor and the {@code RUN} command need. With
 * {@code -Dheadroom.docker.build=true} the {@code RUN} command itself runs there, offline ({@code -o}, from
 * {@code ~/.m2}), and must produce the jar the runtime stage copies.
 */
class DockerContextTest {
  private static final Path ROOT = DockerContext.repositoryRoot();

  private static DockerContext dockerfile() throws Exception {
    return DockerContext.parse(Files.readString(ROOT.resolve("Dockerfile")));
  }

  private static Path assemble(DockerContext d, Path dir) throws Exception {
    d.assemble(ROOT, DockerContext.DockerIgnore.read(ROOT.resolve(".dockerignore")), dir);
    return dir;
  }

  @Test
  void theBuildStageCopiesEveryModuleAndFileTheBuildNeeds(@TempDir Path dir) throws Exception {
    DockerContext d = dockerfile();
    assertThat(d.run).contains("-pl cli").contains("package");
    Path stage = assemble(d, dir);
    assertThat(DockerContext.missing(stage, d.run)).as("missing from the Docker build stage").isEmpty();
    assertThat(stage.resolve("mvnw")).isExecutable();
    assertThat(stage.resolve(".mvn/wrapper/maven-wrapper.properties")).isRegularFile();
    assertThat(stage.resolve("cli/target")).as(".dockerignore keeps build output out").doesNotExist();
  }

  @Test
  void aBuildStageWithoutTheSimModuleIsReported(@TempDir Path dir) throws Exception {
    String withoutSim = Files.readString(ROOT.resolve("Dockerfile")).replace("COPY sim sim\n", "");
    DockerContext d = DockerContext.parse(withoutSim);
    Path stage = assemble(d, dir);
    assertThat(DockerContext.missing(stage, d.run)).contains("module sim (sim/pom.xml)");
  }

  @Test
  void dockerIgnorePatternsExcludeDirectoriesAndWhatIsBelowThem() throws Exception {
    DockerContext.DockerIgnore ignore = DockerContext.DockerIgnore.read(ROOT.resolve(".dockerignore"));
    assertThat(ignore.excluded("cli/target")).isTrue();
    assertThat(ignore.excluded("cli/target/classes/A.class")).isTrue();
    assertThat(ignore.excluded("target")).isTrue();
    assertThat(ignore.excluded("docs/performance.md")).isTrue();
    assertThat(ignore.excluded("cli/src/main/java/dev/headroom/cli/Main.java")).isFalse();
    assertThat(ignore.excluded("deploy/crds/capacitybuffers.autoscaling.x-k8s.io.yaml")).isFalse();
  }

  /** Runs the Dockerfile's build command in the assembled stage; slow (a full package build), so opt-in. */
  @Test
  @EnabledIfSystemProperty(named = "headroom.docker.build", matches = "true")
  void theBuildCommandSucceedsInTheAssembledStage(@TempDir Path dir) throws Exception {
    DockerContext d = dockerfile();
    Path stage = assemble(d, dir);
    String offline = d.run.replaceFirst("^\\./mvnw ", "./mvnw -o ");
    Process p = new ProcessBuilder(List.of("sh", "-c", offline)).directory(stage.toFile()).redirectErrorStream(true)
        .redirectOutput(stage.resolve("build.log").toFile()).start();
    boolean finished = p.waitFor(15, TimeUnit.MINUTES);
    if (!finished) {
      p.destroyForcibly();
    }
    assertThat(finished).as("build finished within 15 minutes").isTrue();
    assertThat(p.exitValue()).as(() -> "build log:\n" + read(stage.resolve("build.log"))).isZero();
    assertThat(stage.resolve("cli/target/headroom.jar")).as("the jar the runtime stage copies").isRegularFile();
  }

  private static String read(Path p) {
    try {
      return Files.readString(p);
    } catch (java.io.IOException e) {
      return e.toString();
    }
  }
}
