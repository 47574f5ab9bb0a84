/**
 * In-memory implementations of the autoscaler's ports: a static {@link
 * dev.headroom.core.autoscaler.memory.StaticClusterView}, a {@link
 * dev.headroom.core.autoscaler.memory.RecordingNodeGroupProvider} that records what it is asked instead of acting,
 * recording event and status sinks, and {@link dev.headroom.core.autoscaler.memory.StaticStateSeed}, which turns
 * a one-off cluster picture into the {@code AutoscalerState} a long-running autoscaler would have. Used by
 * {@code headroom plan}, the benchmarks and tests.
 */
package dev.headroom.core.autoscaler.memory;
