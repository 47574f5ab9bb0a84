package dev.headroom.core.workload;

import java.util.OptionalInt;

/**
 * What a tick-model run shows at a glance.
 *
 * @param catchUpTick the first tick at or after the jump where processed reaches arrivals; empty when never
 * @param peakQueue the largest end-of-tick backlog
 * @param finalReplicas the replicas at the last tick
 * @param finalQueue the backlog at the end of the last tick
 */
public record TickSummary(OptionalInt catchUpTick, long peakQueue, int finalReplicas, long finalQueue) {}
