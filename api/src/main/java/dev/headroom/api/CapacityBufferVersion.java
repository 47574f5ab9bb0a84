package dev.headroom.api;

import java.util.Arrays;
import java.util.Optional;

/**
 * The served versions of {@code capacitybuffers.autoscaling.x-k8s.io}. Their schemas are identical except for
 * the message of the second CEL rule on {@code spec}; {@link #V1BETA1} is the storage version.
 */
public enum CapacityBufferVersion {
  /** Served, deprecated, not storage. */
  V1ALPHA1("v1alpha1"),
  /** Served and storage; the version Headroom reads and writes. */
  V1BETA1("v1beta1");

  /** The API group of both versions. */
  public static final String GROUP = "autoscaling.x-k8s.io";
  /** The kind of both versions. */
  public static final String KIND = "CapacityBuffer";

  private final String version;

  CapacityBufferVersion(String version) {
    this.version = version;
  }

  /** The bare version, e.g. {@code v1beta1}. */
  public String version() {
    return version;
  }

  /** The {@code apiVersion} value, e.g. {@code autoscaling.x-k8s.io/v1beta1}. */
  public String apiVersion() {
    return GROUP + "/" + version;
  }

  /** The version whose {@link #apiVersion()} equals {@code apiVersion} exactly, if any. */
  public static Optional<CapacityBufferVersion> fromApiVersion(String apiVersion) {
    return Arrays.stream(values()).filter(v -> v.apiVersion().equals(apiVersion)).findFirst();
  }
}
