package dev.headroom.core.scheduling;

import java.util.function.IntPredicate;

/**
 * A caller's node filter for a placement ({@link ClusterSnapshot#scheduleOnAnyNode}) that can also tell, cheaply,
 * which nodes it has already refused: a placement skips those before it runs any predicate on them. Exact: the
 * placement is the first node that passes the predicates and is accepted, and a refused node is never that node.
 */
public interface NodeFilter extends IntPredicate {

  /** True when this filter is known to refuse node {@code index} (false when it does not know yet). */
  boolean knownToRefuse(int index);
}
