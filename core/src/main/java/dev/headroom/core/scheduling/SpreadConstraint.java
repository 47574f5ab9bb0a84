package dev.headroom.core.scheduling;

/**
 * A {@code whenUnsatisfiable: DoNotSchedule} topology spread constraint, compiled: the selector already
 * carries the {@code matchLabelKeys} requirements copied from the owner pod's labels; the counted pods are
 * those of the owner's namespace. {@code honorNodeAffinity}/{@code honorTaints} are the
 * {@code nodeAffinityPolicy}/{@code nodeTaintsPolicy} choices (defaults: Honor / Ignore).
 */
public record SpreadConstraint(
    int maxSkew,
    String topologyKey,
    LabelSelectorMatcher selector,
    int minDomains,
    boolean honorNodeAffinity,
    boolean honorTaints) {}
