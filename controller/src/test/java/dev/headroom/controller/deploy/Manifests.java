package dev.headroom.controller.deploy;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Reads the manifests under the repository's {@code deploy/} directory. */
final class Manifests {
  static final Path DEPLOY = Path.of("..", "deploy");

  private Manifests() {}

  static String text(String file) {
    try {
      return Files.readString(DEPLOY.resolve(file), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every document of a multi-document YAML file. */
  static List<HasMetadata> objects(String file) {
    List<HasMetadata> out = new ArrayList<>();
    for (String doc : text(file).split("(?m)^---\\s*$")) {
      if (doc.lines().anyMatch(l -> l.startsWith("kind:"))) {
        out.add(Serialization.unmarshal(doc, HasMetadata.class));
      }
    }
    return out;
  }
}
