package dev.headroom.sim.report;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Fixed-precision number formatting shared by every output, so equal runs give byte-identical files. */
final class Numbers {

  private Numbers() {}

  /** {@code value} rounded half-up to {@code scale} decimals, without exponent and without trailing zeros. */
  static String plain(double value, int scale) {
    if (!Double.isFinite(value)) {
      return "0";
    }
    BigDecimal d = BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_UP).stripTrailingZeros();
    if (d.signum() == 0) {
      return "0";
    }
    return d.toPlainString();
  }

  /** {@code value} rounded half-up to exactly {@code scale} decimals. */
  static String fixed(double value, int scale) {
    if (!Double.isFinite(value)) {
      value = 0;
    }
    return BigDecimal.valueOf(value).setScale(scale, RoundingMode.HALF_UP).toPlainString();
  }
}
