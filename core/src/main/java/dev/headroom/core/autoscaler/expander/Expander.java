package dev.headroom.core.autoscaler.expander;

import java.util.List;

/** One expansion strategy: keeps the best options of a non-empty list (ties are all kept). */
public interface Expander {

  /** The expander's name as given to {@code --expander}. */
  String name();

  /** The best options; never empty when the input is not empty. */
  List<ExpansionOption> bestOptions(List<ExpansionOption> options);
}
