package dev.headroom.api.validation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.headroom.api.validation.FieldError.ErrorType;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Go's {@code %q} and {@code %v} renderings used in field errors. */
class GoFormatTest {
  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
      "-1.5|-1.5", "2|2", "0.0001|0.0001", "0.00001|1e-05", "100000|100000", "1000000|1e+06",
      "123456789|1.23456789e+08", "1.5e300|1.5e+300", "0.5|0.5"})
  void floatsRenderLikeGoPercentV(double value, String expected) {
    assertThat(GoFormat.floatV(value)).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
      "abc|\"abc\"", "a\"b|\"a\\\"b\"", "a\\b|\"a\\\\b\"", "Grüße|\"Grüße\"", "tab\there|\"tab\\there\""})
  void stringsRenderLikeGoPercentQ(String value, String expected) {
    assertThat(GoFormat.quote(value.replace("\\t", "\t"))).isEqualTo(expected);
  }

  @Test
  void controlCharactersAreEscaped() {
    assertThat(GoFormat.quote("1\n")).isEqualTo("\"1\\n\"");
    assertThat(GoFormat.quote("\u0001")).isEqualTo("\"\\x01\"");
    assertThat(GoFormat.quote("\u200b")).isEqualTo("\"\\u200b\"");
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {
      "REQUIRED|x|spec: Required value", "TOO_LONG|x|spec: Too long: d", "INVALID|x|spec: Invalid value: \"x\": d"})
  void valuesAreOmittedForRequiredAndTooLong(ErrorType type, String value, String expected) {
    String detail = type == ErrorType.REQUIRED ? "" : "d";
    assertThat(new FieldError("spec", List.of("spec"), type, value, detail).message()).isEqualTo(expected);
  }

  @ParameterizedTest
  @CsvSource(delimiter = '|', value = {"-1|-1", "true|true"})
  void scalarsRenderWithPercentV(String raw, String expected) {
    Object value = raw.equals("true") ? (Object) Boolean.TRUE : (Object) Long.parseLong(raw);
    assertThat(new FieldError("f", List.of(), ErrorType.INVALID, value, "").message())
        .isEqualTo("f: Invalid value: " + expected);
    assertThat(new FieldError("f", List.of(), ErrorType.INVALID, null, "d").message())
        .isEqualTo("f: Invalid value: null: d");
  }
}
