package dev.headroom.core.autoscaler;

import java.time.Instant;

/** An active scale-up request of one group (cluster-state registry). */
public record ScaleUpRequest(String group, int increase, Instant time, Instant expectedAddTime) {}
