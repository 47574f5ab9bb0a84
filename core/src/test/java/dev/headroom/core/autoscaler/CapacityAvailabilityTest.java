package dev.headroom.core.autoscaler;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.core.buffer.BufferConditions;
import io.fabric8.kubernetes.api.model.Condition;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

class CapacityAvailabilityTest {

  @Test
  void messagesAreTheFormatStringsFilledInOrder() {
    Random r = new Random(5);
    for (int i = 0; i < 200; i++) {
      int n = r.nextInt(100_000);
      int u = r.nextInt(n + 1);
      int f = n - u;
      assertThat(CapacityAvailability.fill(CapacityAvailability.MESSAGE_FITS, n))
          .isEqualTo(String.format(Locale.ROOT, CapacityAvailability.MESSAGE_FITS, n));
      assertThat(CapacityAvailability.fill(CapacityAvailability.MESSAGE_REQUIRES, u, n, f))
          .isEqualTo(String.format(Locale.ROOT, CapacityAvailability.MESSAGE_REQUIRES, u, n, f));
    }
  }

  @Test
  void decisionTable() {
    Condition fits = CapacityAvailability.evaluate(7, 7, 0, 0, false, null, 3);
    assertThat(fits.getStatus()).isEqualTo(BufferConditions.TRUE);
    assertThat(fits.getReason()).isEqualTo(BufferConditions.REASON_FITS_EXISTING_CAPACITY);
    assertThat(fits.getMessage()).isEqualTo("All 7 virtual pods fit on existing capacity");
    Condition requires = CapacityAvailability.evaluate(10, 4, 5, 1, false, null, 3);
    assertThat(requires.getStatus()).isEqualTo(BufferConditions.FALSE);
    assertThat(requires.getReason()).isEqualTo(BufferConditions.REASON_REQUIRES_NEW_CAPACITY);
    assertThat(requires.getMessage()).isEqualTo("5/10 virtual pods required new capacity, 1 failed");
  }
}
