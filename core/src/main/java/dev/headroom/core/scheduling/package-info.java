/**
 * Scheduling simulation (autoscaler spec §2): fabric8 pods and nodes compiled once
 * ({@link dev.headroom.core.scheduling.SchedulingCompiler}), a forkable snapshot with the Filter predicates
 * of kube-scheduler's default profile ({@link dev.headroom.core.scheduling.ClusterSnapshot}), equivalence
 * classes ({@link dev.headroom.core.scheduling.PodClass}) and the first-fit-decreasing binpacking estimator
 * ({@link dev.headroom.core.scheduling.BinpackingEstimator}).
 */
package dev.headroom.core.scheduling;
