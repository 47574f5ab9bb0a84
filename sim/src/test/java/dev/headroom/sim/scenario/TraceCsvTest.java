package dev.headroom.sim.scenario;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.Reader;
import org.junit.jupiter.api.Test;

class TraceCsvTest {

  /** {@code rows} generated rows {@code i,i%7} after the header, produced on the fly (never held as one text). */
  private static BufferedReader rows(int rows, String bad, int badRow) {
    return new BufferedReader(new Reader() {
      private int next = -1;
      private String pending = "time,rate\n";
      private int at;

      @Override
      public int read(char[] buf, int off, int len) {
        if (at == pending.length()) {
          if (++next >= rows) {
            return -1;
          }
          pending = next == badRow ? bad + "\n" : next + "," + (next % 7) + "\n";
          at = 0;
        }
        int n = Math.min(len, pending.length() - at);
        pending.getChars(at, at + n, buf, off);
        at += n;
        return n;
      }

      @Override
      public void close() {}
    });
  }

  @Test
  void aTraceOfMillionsOfRowsLoadsRowByRow() throws IOException {
    LoadProfile.Trace t = TraceCsv.parse("big.csv", rows(2_000_000, null, -1), 1.0);
    assertThat(t.points()).hasSize(2_000_000);
    assertThat(t.points().get(1_999_999).seconds()).isEqualTo(1_999_999.0);
    assertThat(t.rateAt(10.5)).isEqualTo(3.5);
  }

  @Test
  void aBadRowDeepInALargeTraceNamesItsLine() {
    assertThatThrownBy(() -> TraceCsv.parse("big.csv", rows(1_000_000, "12x,1", 900_000), 1.0))
        .isInstanceOf(ScenarioException.class).hasMessageContaining("big.csv:900002:");
  }
}
