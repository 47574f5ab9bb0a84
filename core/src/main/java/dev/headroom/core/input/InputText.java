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
 * The rules every input file of the commands follows before it is parsed: strict UTF-8 (an initial byte-order mark is dropped), and plain-words reasons for files that cannot be read. The
 * bytes come from the caller: this class does no I/O.
 */
public final class InputText {

  /**
   * The most one document may hold, in characters (3 MiB, the API server's limit for one request body): a YAML
   * document, or one item of a {@code List} document read item by item. A file may hold any number of documents.
   */
  public static final int MAX_DOCUMENT_CHARS = 3 * 1024 * 1024;

  private InputText() {}

  /** The per-document limit as people write it. */
  public static String maxDocumentSize() {
    return "3 MiB";
  }

  /**
   * A reader of strict UTF-8 from {@code in} (an initial byte-order mark is dropped): a malformed byte fails with a
   * {@link TextInputException} naming its line, as {@link #decode} does. The stream is read in chunks, so a file of
   * any size can be read without holding it whole.
   */
  public static java.io.Reader utf8Reader(java.io.InputStream in) {
    return new Utf8Reader(in);
  }

  /**
   * Decodes UTF-8 bytes; a leading byte-order mark is dropped.
   *
   * @throws TextInputException "not UTF-8 text" with the line of the first invalid byte
   */
  public static String decode(byte[] bytes) {
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

  /** Strict UTF-8 decoding in chunks, counting lines so that a malformed byte is reported with its line. */
  private static final class Utf8Reader extends java.io.Reader {
    private final java.io.InputStream in;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT);
    private final ByteBuffer bytes = ByteBuffer.allocate(64 * 1024);
    private final CharBuffer chars = CharBuffer.allocate(64 * 1024);
    private boolean eof;
    private boolean flushed;
    private boolean first = true;
    private long offset;
    private int line = 1;

    Utf8Reader(java.io.InputStream in) {
      this.in = in;
      chars.flip();
    }

    @Override
    public int read(char[] buf, int off, int len) throws IOException {
      while (!chars.hasRemaining()) {
        if (!fill()) {
          return -1;
        }
      }
      int n = Math.min(len, chars.remaining());
      chars.get(buf, off, n);
      return n;
    }

    /** Decodes the next chunk into {@code chars}; false at the end of the input. */
    private boolean fill() throws IOException {
      if (flushed) {
        return false;
      }
      if (!eof) {
        int n = in.read(bytes.array(), bytes.position(), bytes.remaining());
        if (n < 0) {
          eof = true;
        } else {
          bytes.position(bytes.position() + n);
        }
      }
      bytes.flip();
      chars.clear();
      int before = bytes.position();
      CoderResult r = decoder.decode(bytes, chars, eof);
      if (!r.isError() && eof && !bytes.hasRemaining()) {
        r = decoder.flush(chars);
        flushed = true;
      }
      if (r.isError()) {
        chars.flip();
        countLines();
        long at = offset + bytes.position() - before;
        throw new TextInputException(line, String.format("not UTF-8 text (byte 0x%02x at offset %d)",
            bytes.get(bytes.position()) & 0xff, at));
      }
      offset += bytes.position() - before;
      bytes.compact();
      chars.flip();
      if (first && chars.hasRemaining()) {
        first = false;
        if (chars.get(chars.position()) == '\uFEFF') {
          chars.get();
        }
      }
      countLines();
      return true;
    }

    private void countLines() {
      for (int i = chars.position(); i < chars.limit(); i++) {
        if (chars.get(i) == '\n') {
          line++;
        }
      }
    }

    @Override
    public void close() throws IOException {
      in.close();
    }
  }
}
