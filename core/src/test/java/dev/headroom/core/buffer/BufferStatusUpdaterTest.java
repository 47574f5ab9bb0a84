package dev.headroom.core.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.v1beta1.CapacityBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Spec §9.10: one UPDATE per buffer, per-buffer errors, no retry. */
class BufferStatusUpdaterTest {

  static Stream<Arguments> rows() {
    return Stream.of(
        Arguments.of("9.10 Update one buffer", List.of("buffer1"), 1, 1, 0),
        Arguments.of("9.10 Update one buffer not existing", List.of("buffer2"), 1, 0, 1),
        Arguments.of("9.10 Update multiple buffers", List.of("buffer1", "buffer2"), 2, 1, 1));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("rows")
  void statusUpdater(String name, List<String> input, int calls, int updated, int errors) {
    List<String> seen = new ArrayList<>();
    BufferStatusWriter fake = b -> {
      seen.add(b.getMetadata().getName());
      if (!b.getMetadata().getName().equals("buffer1")) {
        throw new ClusterApiException(NotFound.message("capacitybuffers", "autoscaling.x-k8s.io", b.getMetadata().getName()));
      }
    };
    List<CapacityBuffer> buffers = input.stream().map(Fixtures::buffer).toList();
    BufferStatusUpdater.Result r = new BufferStatusUpdater(fake).update(buffers);
    assertThat(seen).hasSize(calls);
    assertThat(r.updated()).isEqualTo(updated);
    assertThat(r.errors()).hasSize(errors);
  }
}
