package dev.headroom.core.input;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * The rules every input file of the commands follows before it is parsed: at most {@link #MAX_BYTES} bytes,
 * strict UTF-8 (an initial byte-order mark is dropped), and plain-words reasons for files that cannot be read. The
 * bytes come from the caller: this class does no I/O.
 */
public final class InputText {

  /**
   * The largest input file, in bytes (8 MiB): well above any real manifest or scenario (the API server takes at most
   * 3 MiB per object), and small enough that parsing stays within about a second.
   */
  public static final int MAX_BYTES = 8 * 1024 * 1024;

  private InputText() {}

  /** The limit as people write it. */
  public static String maxSize() {
    return "8 MiB";
  }

  /**
   * Fails when {@code size} bytes are over {@link #MAX_BYTES}.
   *
   * @throws TextInputException naming the limit
   */
  public static void checkSize(long size) {
    if (size > MAX_BYTES) {
      throw new TextInputException(0, "the file is " + size + " bytes, larger than the " + maxSize() + " ("
          + MAX_BYTES + " bytes) limit for input files");
    }
  }

  /**
   * Decodes UTF-8 bytes; a leading byte-order mark is dropped.
   *
   * @throws TextInputException "not UTF-8 text" with the line of the first invalid byte, or when over the size limit
   */
  public static String decode(byte[] bytes) {
    checkSize(bytes.length);
    CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    ByteBuffer in = ByteBuffer.wrap(bytes);
    CharBuffer out = CharBuffer.allocate(bytes.length);
    CoderResult r = decoder.decode(in, out, true);
    if (!r.isError()) {
      r = decoder.flush(out);
    }
    if (r.isError()) {
      int at = in.position();
      int line = 1;
      for (int i = 0; i < at; i++) {
        if (bytes[i] == '\n') {
          line++;
        }
      }
      throw new TextInputException(line, String.format("not UTF-8 text (byte 0x%02x at offset %d)", bytes[at] & 0xff, at));
    }
    out.flip();
    String text = out.toString();
    return stripBom(text);
  }

  /** {@code text} without a leading byte-order mark. */
  public static String stripBom(String text) {
    return !text.isEmpty() && text.charAt(0) == '\uFEFF' ? text.substring(1) : text;
  }

  /** Why a file could not be read, in plain words ("no such file", "permission denied", "is a directory", …). */
  public static String whyUnreadable(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    String reason = e instanceof FileSystemException f ? f.getReason() : e.getMessage();
    if (reason == null || reason.isBlank()) {
      return "cannot be read";
    }
    return reason.toLowerCase(java.util.Locale.ROOT).contains("is a directory") ? "is a directory" : reason.trim();
  }
}
