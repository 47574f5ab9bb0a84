package dev.headroom.core.scheduling;

import java.util.Arrays;
import java.util.BitSet;

/** Per-domain counts of one counter definition in one layer (copy-on-write across layers). */
final class DomainCounts {
  int[] counts;
  int[] nodesPerDomain;
  int[] histogram; // histogram[c] = domains (with eligible nodes) whose count is c
  int domainCount;
  int min;
  long total;
  BitSet eligible;

  DomainCounts() {
    counts = new int[8];
    nodesPerDomain = new int[8];
    histogram = new int[8];
    eligible = new BitSet();
  }

  DomainCounts copy() {
    DomainCounts c = new DomainCounts();
    c.counts = counts.clone();
    c.nodesPerDomain = nodesPerDomain.clone();
    c.histogram = histogram.clone();
    c.domainCount = domainCount;
    c.min = min;
    c.total = total;
    c.eligible = (BitSet) eligible.clone();
    return c;
  }

  int count(int d) {
    return d >= 0 && d < counts.length ? counts[d] : 0;
  }

  int nodesPerDomain(int d) {
    return d >= 0 && d < nodesPerDomain.length ? nodesPerDomain[d] : 0;
  }

  private void ensure(int d) {
    if (d >= counts.length) {
      int n = Math.max(d + 1, counts.length * 2);
      counts = Arrays.copyOf(counts, n);
      nodesPerDomain = Arrays.copyOf(nodesPerDomain, n);
    }
  }

  private void hist(int c, int delta) {
    if (c >= histogram.length) {
      histogram = Arrays.copyOf(histogram, Math.max(c + 1, histogram.length * 2));
    }
    histogram[c] += delta;
  }

  void addNode(int node, int d) {
    eligible.set(node);
    ensure(d);
    if (nodesPerDomain[d]++ == 0) {
      domainCount++;
      hist(counts[d], 1);
      if (domainCount == 1 || counts[d] < min) {
        min = counts[d];
      }
    }
  }

  void removeNode(int node, int d) {
    eligible.clear(node);
    if (--nodesPerDomain[d] == 0) {
      domainCount--;
      hist(counts[d], -1);
      recomputeMinUpwards();
    }
  }

  void addCount(int d, int delta) {
    ensure(d);
    int before = counts[d];
    counts[d] = before + delta;
    total += delta;
    if (nodesPerDomain[d] > 0) {
      hist(before, -1);
      hist(before + delta, 1);
      if (counts[d] < min) {
        min = counts[d];
      } else if (before == min) {
        recomputeMinUpwards();
      }
    }
  }

  private void recomputeMinUpwards() {
    if (domainCount == 0) {
      min = 0;
      return;
    }
    int m = Math.min(min, histogram.length - 1);
    while (m > 0 && histogram[m - 1] > 0) {
      m--;
    }
    while (histogram[m] == 0) {
      m++;
    }
    min = m;
  }
}
