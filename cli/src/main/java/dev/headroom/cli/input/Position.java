package dev.headroom.cli.input;

/** Where an object starts in an input file; prints as {@code FILE:LINE} (lines count from 1). */
public record Position(String file, int line) {

  @Override
  public String toString() {
    return file + ":" + line;
  }
}
