package dev.headroom.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.w3c.dom.NodeList;

/**
 * The Docker build stage of the repository's Dockerfile as a test can replay it without a Docker engine: the
 * {@code COPY} lines of the first stage (sources relative to the build context, which {@code .dockerignore}
 * filters), its {@code WORKDIR} and its {@code RUN} command; {@link #assemble} lays the stage's file system out in a
 * directory exactly as those lines do, and {@link #missing} lists what the Maven reactor needs but the copy lacks.
 */
final class DockerContext {
  /** One {@code COPY SRC... DEST} of the build stage. */
  record Copy(int line, List<String> sources, String destination) {}

  final String workdir;
  final List<Copy> copies;
  final String run;

  private DockerContext(String workdir, List<Copy> copies, String run) {
    this.workdir = workdir;
    this.copies = copies;
    this.run = run;
  }

  /** The repository root, found from the module directory surefire runs in. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      if (Files.isRegularFile(p.resolve("Dockerfile")) && Files.isRegularFile(p.resolve("mvnw"))) {
        return p;
      }
    }
    throw new IllegalStateException("no Dockerfile above " + dir);
  }

  /** Parses the first stage (up to the second {@code FROM}) of {@code dockerfile}. */
  static DockerContext parse(String dockerfile) {
    List<String> logical = new ArrayList<>();
    List<Integer> lineNumbers = new ArrayList<>();
    StringBuilder current = null;
    int start = 0;
    String[] lines = dockerfile.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String l = lines[i].strip();
      if (current == null && (l.isEmpty() || l.startsWith("#"))) {
        continue;
      }
      if (current == null) {
        current = new StringBuilder();
        start = i + 1;
      }
      if (l.endsWith("\\")) {
        current.append(l, 0, l.length() - 1).append(' ');
        continue;
      }
      current.append(l);
      logical.add(current.toString().strip());
      lineNumbers.add(start);
      current = null;
    }
    int froms = 0;
    String workdir = "/";
    String run = null;
    List<Copy> copies = new ArrayList<>();
    for (int i = 0; i < logical.size(); i++) {
      String l = logical.get(i);
      String[] words = l.split("\\s+");
      String instruction = words[0].toUpperCase(java.util.Locale.ROOT);
      if (instruction.equals("FROM") && ++froms > 1) {
        break;
      }
      switch (instruction) {
        case "WORKDIR" -> workdir = words[1];
        case "RUN" -> run = l.substring(words[0].length()).strip();
        case "COPY" -> {
          List<String> args = new ArrayList<>();
          for (int w = 1; w < words.length; w++) {
            if (!words[w].startsWith("--")) {
              args.add(words[w]);
            } else if (words[w].startsWith("--from")) {
              throw new IllegalArgumentException("Dockerfile:" + lineNumbers.get(i) + ": the build stage copies from another stage");
            }
          }
          copies.add(new Copy(lineNumbers.get(i), List.copyOf(args.subList(0, args.size() - 1)), args.get(args.size() - 1)));
        }
        default -> { }
      }
    }
    if (run == null) {
      throw new IllegalArgumentException("Dockerfile: the build stage has no RUN");
    }
    return new DockerContext(workdir, List.copyOf(copies), run);
  }

  /**
   * Lays out the build stage's {@code WORKDIR} in {@code target}: every {@code COPY} source taken from
   * {@code context} (minus what {@code ignore} excludes) to its destination, with Docker's rules (a directory's
   * contents go into the destination directory; several sources or a destination ending in {@code /} make it a
   * directory).
   */
  void assemble(Path context, DockerIgnore ignore, Path target) throws IOException {
    for (Copy c : copies) {
      boolean intoDirectory = c.destination().endsWith("/") || c.sources().size() > 1;
      Path dest = target.resolve(c.destination().startsWith("/") ? stripWorkdir(c.destination()) : c.destination());
      for (String s : c.sources()) {
        Path src = context.resolve(s).normalize();
        if (!Files.exists(src, LinkOption.NOFOLLOW_LINKS) || ignore.excluded(context.relativize(src).toString())) {
          throw new IOException("Dockerfile:" + c.line() + ": COPY source " + s + " is not in the build context");
        }
        if (Files.isDirectory(src)) {
          copyTree(context, src, dest, ignore);
        } else {
          Path to = intoDirectory || Files.isDirectory(dest) ? dest.resolve(src.getFileName().toString()) : dest;
          Files.createDirectories(to.getParent());
          Files.copy(src, to, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  private String stripWorkdir(String absolute) {
    String w = workdir.endsWith("/") ? workdir : workdir + "/";
    if (!absolute.startsWith(w)) {
      throw new IllegalArgumentException("COPY destination " + absolute + " is outside WORKDIR " + workdir);
    }
    return absolute.substring(w.length());
  }

  private static void copyTree(Path context, Path src, Path dest, DockerIgnore ignore) throws IOException {
    try (Stream<Path> walk = Files.walk(src)) {
      for (Path p : (Iterable<Path>) walk::iterator) {
        if (ignore.excluded(context.relativize(p).toString())) {
          continue;
        }
        Path to = dest.resolve(src.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(to);
        } else {
          Files.createDirectories(to.getParent());
          Files.copy(p, to, StandardCopyOption.COPY_ATTRIBUTES, StandardCopyOption.REPLACE_EXISTING);
        }
      }
    }
  }

  /**
   * What Maven needs in {@code root} but is not there: every module of the root pom's {@code <modules>} (Maven
   * loads the whole reactor even with {@code -pl}), every {@code dev.headroom} dependency of the module the
   * {@code RUN} builds ({@code -pl X -am}) and of its dependencies, and every file a module pom names outside its
   * own directory ({@code ${project.basedir}/../PATH}).
   */
  static Set<String> missing(Path root, String runCommand) {
    Set<String> missing = new TreeSet<>();
    Element rootPom = pom(root.resolve("pom.xml"));
    List<String> modules = texts(child(rootPom, "modules"), "module");
    Set<String> present = new LinkedHashSet<>();
    java.util.Map<String, String> moduleOfArtifact = new java.util.HashMap<>();
    for (String m : modules) {
      Path pom = root.resolve(m).resolve("pom.xml");
      if (!Files.isRegularFile(pom)) {
        missing.add("module " + m + " (" + m + "/pom.xml)");
        continue;
      }
      present.add(m);
      moduleOfArtifact.put(text(pom(pom), "artifactId"), m);
    }
    Matcher pl = Pattern.compile("-pl\\s+(\\S+)").matcher(runCommand);
    List<String> targets = pl.find() ? List.of(pl.group(1).split(",")) : modules;
    java.util.ArrayDeque<String> todo = new java.util.ArrayDeque<>(targets);
    Set<String> seen = new LinkedHashSet<>();
    while (!todo.isEmpty()) {
      String m = todo.pop();
      if (!seen.add(m)) {
        continue;
      }
      Path pom = root.resolve(m).resolve("pom.xml");
      if (!Files.isRegularFile(pom)) {
        missing.add("module " + m + " (" + m + "/pom.xml)");
        continue;
      }
      Element project = pom(pom);
      for (Element dep : elements(child(project, "dependencies"), "dependency")) {
        if ("dev.headroom".equals(text(dep, "groupId"))) {
          String artifact = text(dep, "artifactId");
          String module = moduleOfArtifact.get(artifact);
          if (module == null) {
            missing.add("the module of " + artifact + " (needed by " + m + ")");
          } else {
            todo.add(module);
          }
        }
      }
      try {
        Matcher outside = Pattern.compile("\\$\\{project\\.basedir}/\\.\\./([^<\\s]+)").matcher(Files.readString(pom));
        while (outside.find()) {
          if (!Files.exists(root.resolve(outside.group(1)))) {
            missing.add(outside.group(1) + " (read by " + m + "/pom.xml)");
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return missing;
  }

  private static Element pom(Path file) {
    try {
      DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
      f.setNamespaceAware(false);
      Document d = f.newDocumentBuilder().parse(file.toFile());
      return d.getDocumentElement();
    } catch (Exception e) {
      throw new IllegalStateException(file + ": " + e.getMessage(), e);
    }
  }

  private static Element child(Element parent, String name) {
    if (parent == null) {
      return null;
    }
    for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
      if (n instanceof Element e && e.getTagName().equals(name)) {
        return e;
      }
    }
    return null;
  }

  private static List<Element> elements(Element parent, String name) {
    List<Element> out = new ArrayList<>();
    if (parent == null) {
      return out;
    }
    NodeList list = parent.getChildNodes();
    for (int i = 0; i < list.getLength(); i++) {
      if (list.item(i) instanceof Element e && e.getTagName().equals(name)) {
        out.add(e);
      }
    }
    return out;
  }

  private static String text(Element parent, String name) {
    Element e = child(parent, name);
    return e == null ? null : e.getTextContent().strip();
  }

  private static List<String> texts(Element parent, String name) {
    return elements(parent, name).stream().map(e -> e.getTextContent().strip()).toList();
  }

  /** {@code .dockerignore} patterns with Docker's matching: {@code *}, {@code ?}, {@code **}, {@code !} exceptions, parents exclude children. */
  static final class DockerIgnore {
    private record Rule(Pattern pattern, boolean exception) {}

    private final List<Rule> rules = new ArrayList<>();

    static DockerIgnore read(Path file) throws IOException {
      DockerIgnore d = new DockerIgnore();
      if (Files.isRegularFile(file)) {
        for (String raw : Files.readAllLines(file)) {
          String l = raw.strip();
          if (l.isEmpty() || l.startsWith("#")) {
            continue;
          }
          boolean exception = l.startsWith("!");
          String p = exception ? l.substring(1).strip() : l;
          p = p.replaceAll("^/+", "").replaceAll("/+$", "");
          d.rules.add(new Rule(Pattern.compile(regex(p)), exception));
        }
      }
      return d;
    }

    private static String regex(String glob) {
      StringBuilder sb = new StringBuilder();
      String[] parts = glob.split("/");
      for (int i = 0; i < parts.length; i++) {
        String part = parts[i];
        boolean last = i == parts.length - 1;
        if (part.equals("**")) {
          sb.append(last ? ".*" : "(?:[^/]+/)*");
          continue;
        }
        for (char c : part.toCharArray()) {
          switch (c) {
            case '*' -> sb.append("[^/]*");
            case '?' -> sb.append("[^/]");
            default -> sb.append(Pattern.quote(String.valueOf(c)));
          }
        }
        if (!last) {
          sb.append('/');
        }
      }
      return sb.toString();
    }

    /** Whether the context-relative {@code path} (or a directory above it) is excluded. */
    boolean excluded(String path) {
      String p = path.replace('\\', '/');
      if (p.isEmpty()) {
        return false;
      }
      String[] segments = p.split("/");
      StringBuilder prefix = new StringBuilder();
      for (String s : segments) {
        if (prefix.length() > 0) {
          prefix.append('/');
        }
        prefix.append(s);
        if (matches(prefix.toString())) {
          return true;
        }
      }
      return false;
    }

    private boolean matches(String p) {
      boolean out = false;
      for (Rule r : rules) {
        if (r.pattern.matcher(p).matches()) {
          out = !r.exception;
        }
      }
      return out;
    }
  }
}
