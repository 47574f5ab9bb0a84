/**
 * Scheduling simulation (autoscaler spec §2): fabric8 pods and nodes compiled once
 * ({@link dev.headroom.core.scheduling.SchedulingCompiler}), a forkable snapshot
 * ({@link dev.headroom.core.scheduling.ClusterSnapshot}: a facade over the node store, the label index, the topology
 * counters, the Filter plugins of kube-scheduler's default profile composed by {@code FilterChain}, and the
 * placement memos of {@code PlacementMemos}), equivalence
 * classes ({@link dev.headroom.core.scheduling.PodClass}) and the first-fit-decreasing binpacking estimator
 * ({@link dev.headroom.core.scheduling.BinpackingEstimator}).
 */
package dev.headroom.core.scheduling;
