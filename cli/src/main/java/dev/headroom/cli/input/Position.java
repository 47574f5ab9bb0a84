package dev.headroom.cli.input;

/**
 * Where an object starts in an input file; prints as {@code FILE:LINE} (lines count from 1), or as
 * {@code FILE} alone for problems with the whole file (line 0), such as a missing file.
 */
public record Position(String file, int line) {

  @Override
  public String toString() {
    return line > 0 ? file + ":" + line : file;
  }
}
