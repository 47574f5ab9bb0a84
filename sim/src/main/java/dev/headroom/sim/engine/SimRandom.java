package dev.headroom.sim.engine;

import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;

/**
 * The simulator's seeded random source. Each concern draws from its own named stream
 * ({@link #stream(String)}), so adding a draw in one place never shifts the numbers seen elsewhere, and the
 * same seed always gives the same run.
 */
public final class SimRandom {

  private static final char[] NAME_CHARS = "bcdfghjklmnpqrstvwxz2456789".toCharArray();

  private final long seed;
  private final SplittableRandom random;

  /** A source for a seed. */
  public SimRandom(long seed) {
    this.seed = seed;
    this.random = new SplittableRandom(seed);
  }

  /** The seed this source was made from. */
  public long seed() {
    return seed;
  }

  /** An independent source for a named purpose, determined only by this seed and the name. */
  public SimRandom stream(String name) {
    long h = seed * 0x9E3779B97F4A7C15L;
    for (byte b : name.getBytes(StandardCharsets.UTF_8)) {
      h = (h ^ b) * 0x100000001B3L;
      h ^= h >>> 29;
    }
    return new SimRandom(h);
  }

  /** Uniform in [0, 1). */
  public double nextDouble() {
    return random.nextDouble();
  }

  /** Uniform integer in [0, bound). */
  public int nextInt(int bound) {
    return random.nextInt(bound);
  }

  /** Uniform long in [-spread, +spread]; 0 when spread is 0. */
  public long jitter(long spread) {
    return spread <= 0 ? 0 : random.nextLong(-spread, spread + 1);
  }

  /** A Poisson-distributed count with the given mean (Knuth for small means, normal approximation above 50). */
  public long poisson(double mean) {
    if (mean <= 0) {
      return 0;
    }
    if (mean > 50) {
      double g = random.nextDouble() + random.nextDouble() + random.nextDouble() + random.nextDouble()
          + random.nextDouble() + random.nextDouble() + random.nextDouble() + random.nextDouble()
          + random.nextDouble() + random.nextDouble() + random.nextDouble() + random.nextDouble() - 6.0;
      return Math.max(0, Math.round(mean + g * Math.sqrt(mean)));
    }
    double l = Math.exp(-mean);
    long k = 0;
    double p = 1;
    do {
      k++;
      p *= random.nextDouble();
    } while (p > l);
    return k - 1;
  }

  /** A random lower-case alphanumeric suffix like Kubernetes' generated names. */
  public String suffix(int length) {
    char[] c = new char[length];
    for (int i = 0; i < length; i++) {
      c[i] = NAME_CHARS[random.nextInt(NAME_CHARS.length)];
    }
    return new String(c);
  }
}
