package dev.headroom.cli.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How {@code -f} names input, as with kubectl: a file, {@code -} for standard input, or a directory. */
class InputFilesTest {

  @TempDir Path dir;

  private static final String POD = "apiVersion: v1\nkind: Pod\nmetadata: {name: %s}\n";

  @Test
  void dashReadsStandardInput() throws Exception {
    YamlInputLoader loader = new YamlInputLoader(new ByteArrayInputStream(POD.formatted("p").getBytes(StandardCharsets.UTF_8)));
    List<InputDocument> docs = loader.load(Path.of("-"));
    assertThat(docs).extracting(InputDocument::name).containsExactly("p");
    assertThat(docs.get(0).position()).hasToString("stdin:1");
  }

  @Test
  void aDirectoryReadsItsYamlAndJsonFilesInNameOrder() throws Exception {
    Files.writeString(dir.resolve("b.yml"), POD.formatted("b"));
    Files.writeString(dir.resolve("a.yaml"), POD.formatted("a"));
    Files.writeString(dir.resolve("c.json"), "{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"c\"}}");
    Files.writeString(dir.resolve("notes.txt"), "not read");
    Files.createDirectory(dir.resolve("sub"));
    Files.writeString(dir.resolve("sub").resolve("d.yaml"), POD.formatted("d"));
    assertThat(new YamlInputLoader().load(dir)).extracting(InputDocument::name).containsExactly("a", "b", "c");
  }

  @Test
  void unreadableFilesSayWhy() throws Exception {
    YamlInputLoader loader = new YamlInputLoader();
    assertThatThrownBy(() -> loader.load(dir.resolve("nope.yaml"))).hasMessage(dir.resolve("nope.yaml") + ": no such file");
    Path empty = Files.createDirectory(dir.resolve("empty"));
    assertThatThrownBy(() -> loader.load(empty)).hasMessage(empty + ": the directory has no .yaml, .yml or .json files");
    Path secret = Files.writeString(dir.resolve("secret.yaml"), POD.formatted("s"));
    Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("---------"));
    assumeFalse(Files.isReadable(secret), "running as a user who reads everything");
    assertThatThrownBy(() -> loader.load(secret)).hasMessage(secret + ": permission denied");
  }

  @Test
  void aByteOrderMarkIsDroppedAndOtherEncodingsAreNamed() throws Exception {
    Path bom = Files.write(dir.resolve("bom.yaml"), ("\uFEFF" + POD.formatted("p")).getBytes(StandardCharsets.UTF_8));
    assertThat(new YamlInputLoader().load(bom)).hasSize(1);
    Path utf16 = Files.write(dir.resolve("utf16.yaml"), POD.formatted("p").getBytes(StandardCharsets.UTF_16));
    assertThatThrownBy(() -> new YamlInputLoader().load(utf16)).hasMessageStartingWith(utf16 + ":1: not UTF-8 text");
  }
}
