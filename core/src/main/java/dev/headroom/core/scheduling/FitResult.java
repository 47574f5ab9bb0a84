package dev.headroom.core.scheduling;

import java.util.List;

/** Outcome of running the Filter predicates of one pod against one node. */
public sealed interface FitResult permits FitResult.Fits, FitResult.Fails {

  /** The shared passing result. */
  FitResult FITS = new Fits();

  /** True when every predicate passed. */
  boolean fits();

  /** The pod passes every predicate on the node. */
  record Fits() implements FitResult {
    @Override
    public boolean fits() {
      return true;
    }
  }

  /**
   * The first failing predicate. {@code messages} holds the scheduler's reason strings (several only for
   * NodeResourcesFit, which reports every insufficient resource, as kube-scheduler does).
   */
  record Fails(Reason reason, List<String> messages) implements FitResult {
    /** A failure with one message. */
    public Fails(Reason reason, String message) {
      this(reason, List.of(message));
    }

    public Fails {
      messages = List.copyOf(messages);
    }

    @Override
    public boolean fits() {
      return false;
    }

    /** The first reason string. */
    public String message() {
      return messages.get(0);
    }
  }
}
