package dev.headroom.core.scheduling;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Deterministic 64-bit hashing of the compiled scheduling inputs (independent of JVM hash seeds and of
 * map/set iteration order: maps and sets are hashed order-independently).
 */
final class Signature {

  private Signature() {}

  static long mix(long z) {
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }

  static long seq(long h, long v) {
    return mix(h * 0x9E3779B97F4A7C15L + v);
  }

  static long of(String s) {
    if (s == null) {
      return 0x5bd1e995L;
    }
    long h = 0xcbf29ce484222325L;
    for (int i = 0; i < s.length(); i++) {
      h ^= s.charAt(i);
      h *= 0x100000001b3L;
    }
    return mix(h);
  }

  static long of(Map<String, ?> m) {
    long sum = 0x12345L;
    for (Map.Entry<String, ?> e : m.entrySet()) {
      sum += mix(seq(of(e.getKey()), any(e.getValue())));
    }
    return mix(sum + m.size());
  }

  static long ofSet(Collection<?> set) {
    long sum = 0x6789L;
    for (Object o : set) {
      sum += mix(any(o));
    }
    return mix(sum + set.size());
  }

  static long ofList(List<?> list) {
    long h = 0x2468L + list.size();
    for (Object o : list) {
      h = seq(h, any(o));
    }
    return h;
  }

  @SuppressWarnings("unchecked")
  static long any(Object o) {
    if (o == null) {
      return 0x77L;
    }
    if (o instanceof String s) {
      return of(s);
    }
    if (o instanceof Long l) {
      return mix(l ^ 0x1111L);
    }
    if (o instanceof Integer i) {
      return mix(i ^ 0x2222L);
    }
    if (o instanceof Boolean b) {
      return b ? 0x3333L : 0x4444L;
    }
    if (o instanceof Enum<?> e) {
      return seq(of(e.getDeclaringClass().getName()), e.ordinal());
    }
    if (o instanceof Map<?, ?> m) {
      return of((Map<String, ?>) m);
    }
    if (o instanceof Set<?> s) {
      return ofSet(s);
    }
    if (o instanceof List<?> l) {
      return ofList(l);
    }
    if (o instanceof LabelSelectorMatcher m) {
      return seq(ofSet(m.requirements()), m.matchesNothing() ? 1 : 2);
    }
    if (o instanceof LabelSelectorMatcher.Requirement r) {
      return seq(seq(of(r.key()), any(r.op())), ofSet(r.values()));
    }
    if (o instanceof NodeAffinityMatcher m) {
      return seq(of(m.nodeSelector()), m.terms() == null ? 0x99L : ofSet(m.terms()));
    }
    if (o instanceof NodeAffinityMatcher.Term t) {
      return ofSet(t.requirements());
    }
    if (o instanceof NodeAffinityMatcher.Requirement r) {
      return seq(seq(seq(of(r.key()), any(r.op())), ofSet(r.values())), r.field() ? 1 : 2);
    }
    if (o instanceof Toleration t) {
      return seq(seq(seq(of(t.key()), t.exists() ? 1 : 2), of(t.value())), of(t.effect()));
    }
    if (o instanceof HostPort p) {
      return seq(seq(of(p.hostIP()), of(p.protocol())), p.port());
    }
    if (o instanceof AffinityTerm t) {
      long h = seq(ofSet(t.namespaces()), t.allNamespaces() ? 1 : 2);
      h = seq(h, any(t.namespaceSelector()));
      h = seq(h, any(t.selector()));
      return seq(h, of(t.topologyKey()));
    }
    if (o instanceof SpreadConstraint c) {
      long h = seq(c.maxSkew(), of(c.topologyKey()));
      h = seq(h, any(c.selector()));
      h = seq(h, c.minDomains());
      return seq(seq(h, c.honorNodeAffinity() ? 1 : 2), c.honorTaints() ? 1 : 2);
    }
    throw new IllegalArgumentException("no signature for " + o.getClass());
  }
}
