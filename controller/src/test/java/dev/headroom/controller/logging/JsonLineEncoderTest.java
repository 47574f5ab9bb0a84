package dev.headroom.controller.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class JsonLineEncoderTest {

  @AfterEach
  void restore() throws Exception {
    var ctx = (ch.qos.logback.classic.LoggerContext) LoggerFactory.getILoggerFactory();
    ctx.reset();
    new ch.qos.logback.classic.util.ContextInitializer(ctx).autoConfig();
  }

  @Test
  void jsonFormatWritesOneObjectPerLineWithALevelField() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Logging.configure(LogFormat.JSON, Level.INFO, out);
    LoggerFactory.getLogger("dev.headroom.test").info("status written for {}", "ns/\"b\"\n");
    LoggerFactory.getLogger("dev.headroom.test").debug("not shown");
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text.lines()).hasSize(1);
    assertThat(text).startsWith("{\"time\":\"").contains("\"level\":\"INFO\"", "\"logger\":\"dev.headroom.test\"",
        "\"msg\":\"status written for ns/\\\"b\\\"\\n\"").endsWith("}\n");
  }

  @Test
  void textFormatIsForTerminals() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Logging.configure(LogFormat.TEXT, Level.INFO, out);
    LoggerFactory.getLogger("dev.headroom.test").warn("hello");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("WARN ").contains("hello").doesNotContain("{");
  }
}
