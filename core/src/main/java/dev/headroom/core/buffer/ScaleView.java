package dev.headroom.core.buffer;

/**
 * The parts of a {@code /scale} subresource the buffer translation reads.
 *
 * @param replicas {@code status.replicas}: the <em>observed</em> replica count (the base of the live-pod path)
 * @param selector {@code status.selector}: the label selector in its string form ({@code app=web,tier in (a,b)});
 *     null or empty when the object reports none
 */
public record ScaleView(int replicas, String selector) {}
