package dev.headroom.cli;

import io.fabric8.kubernetes.client.utils.KubernetesSerialization;

/**
 * The serialisation of command output: fabric8's Jackson 3 mapper. YAML strings stay quoted, so that values such
 * as {@code "True"} or {@code "123"} keep their type in every YAML reader.
 */
public final class OutputSerialization {

  /** Shared, thread-safe instance. */
  public static final KubernetesSerialization INSTANCE = new KubernetesSerialization();

  private OutputSerialization() {}
}
