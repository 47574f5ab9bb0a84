package dev.headroom.core.scheduling;

import java.util.Arrays;

/** Boxed small non-negative ints (node indexes, class ids) as map keys and values, each made once. */
final class IntBoxes {

  private Integer[] boxes = new Integer[256];

  /** {@code i} boxed; the same object every time for a non-negative {@code i}. */
  Integer of(int i) {
    if (i < 0) {
      return i;
    }
    if (i >= boxes.length) {
      boxes = Arrays.copyOf(boxes, Math.max(i + 1, boxes.length * 2));
    }
    Integer b = boxes[i];
    if (b == null) {
      b = i;
      boxes[i] = b;
    }
    return b;
  }
}
