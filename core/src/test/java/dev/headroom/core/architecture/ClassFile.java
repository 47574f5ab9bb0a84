package dev.headroom.core.architecture;

import java.io.DataInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the dependency rules read of one class file (JVMS §4): the classes its constant pool names (in references
 * and in descriptors and signatures), and, per method, the fields and methods its bytecode uses, method references
 * of its lambdas and its {@code ldc} method handles included.
 */
final class ClassFile {

  /** A field or method of another class, as {@code owner} (internal name), name and descriptor. */
  record Member(String owner, String name, String descriptor) {
    /** {@code java.time.Instant.now()}, {@code java.lang.System.out}: the owner in dotted form, then the member. */
    String display() {
      String dotted = owner.replace('/', '.');
      if (descriptor.startsWith("(")) {
        return dotted + "." + name + "(" + parameters() + ")";
      }
      return dotted + "." + name;
    }

    private String parameters() {
      List<String> out = new ArrayList<>();
      String params = descriptor.substring(1, descriptor.indexOf(')'));
      int i = 0;
      while (i < params.length()) {
        int start = i;
        while (params.charAt(i) == '[') {
          i++;
        }
        int end = params.charAt(i) == 'L' ? params.indexOf(';', i) + 1 : i + 1;
        out.add(typeName(params.substring(start, end)));
        i = end;
      }
      return String.join(", ", out);
    }

    private static String typeName(String d) {
      if (d.startsWith("[")) {
        return typeName(d.substring(1)) + "[]";
      }
      return switch (d.charAt(0)) {
        case 'L' -> d.substring(1, d.length() - 1).replace('/', '.');
        case 'Z' -> "boolean";
        case 'B' -> "byte";
        case 'C' -> "char";
        case 'S' -> "short";
        case 'I' -> "int";
        case 'J' -> "long";
        case 'F' -> "float";
        case 'D' -> "double";
        default -> d;
      };
    }
  }

  /** One method of the class and the members its code uses, in order of first use. */
  record Method(String name, String descriptor, Set<Member> uses) {}

  private static final Pattern DESCRIPTOR_CLASS = Pattern.compile("L([A-Za-z0-9_$/]+)[;<]");

  final String className;
  /** Every class the constant pool names, in references, descriptors and signatures (internal names). */
  final Set<String> referencedClasses;
  /** Field references (not only their use in code): the console rule reads these. */
  final Set<Member> fieldRefs;
  final List<Method> methods;

  private final String[] utf8;
  private final int[] tag;
  private final int[] first;
  private final int[] second;

  private ClassFile(DataInputStream in) throws IOException {
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    utf8 = new String[count];
    tag = new int[count];
    first = new int[count];
    second = new int[count];
    for (int i = 1; i < count; i++) {
      int t = in.readUnsignedByte();
      tag[i] = t;
      switch (t) {
        case 1 -> utf8[i] = in.readUTF();
        case 7, 8, 16, 19, 20 -> first[i] = in.readUnsignedShort();
        case 9, 10, 11, 12, 17, 18 -> {
          first[i] = in.readUnsignedShort();
          second[i] = in.readUnsignedShort();
        }
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++;
        }
        case 15 -> {
          first[i] = in.readUnsignedByte();
          second[i] = in.readUnsignedShort();
        }
        default -> throw new IOException("unknown constant pool tag " + t);
      }
    }
    in.readUnsignedShort(); // access flags
    className = utf8[first[in.readUnsignedShort()]].replace('/', '.');
    in.readUnsignedShort(); // super class
    int interfaces = in.readUnsignedShort();
    for (int i = 0; i < interfaces; i++) {
      in.readUnsignedShort();
    }
    int fields = in.readUnsignedShort();
    for (int i = 0; i < fields; i++) {
      in.readUnsignedShort();
      in.readUnsignedShort();
      in.readUnsignedShort();
      skipAttributes(in);
    }
    int methodCount = in.readUnsignedShort();
    List<String> names = new ArrayList<>();
    List<String> descriptors = new ArrayList<>();
    List<byte[]> codes = new ArrayList<>();
    for (int i = 0; i < methodCount; i++) {
      in.readUnsignedShort();
      names.add(utf8[in.readUnsignedShort()]);
      descriptors.add(utf8[in.readUnsignedShort()]);
      byte[] code = null;
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String name = utf8[in.readUnsignedShort()];
        int length = in.readInt();
        byte[] body = in.readNBytes(length);
        if ("Code".equals(name)) {
          // max_stack, max_locals, code_length, code
          int codeLength = ((body[4] & 0xff) << 24) | ((body[5] & 0xff) << 16) | ((body[6] & 0xff) << 8) | (body[7] & 0xff);
          code = java.util.Arrays.copyOfRange(body, 8, 8 + codeLength);
        }
      }
      codes.add(code);
    }
    int[][] bootstrapArguments = new int[0][];
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      String name = utf8[in.readUnsignedShort()];
      int length = in.readInt();
      if ("BootstrapMethods".equals(name)) {
        int n = in.readUnsignedShort();
        bootstrapArguments = new int[n][];
        for (int b = 0; b < n; b++) {
          in.readUnsignedShort();
          int args = in.readUnsignedShort();
          bootstrapArguments[b] = new int[args];
          for (int k = 0; k < args; k++) {
            bootstrapArguments[b][k] = in.readUnsignedShort();
          }
        }
      } else {
        in.skipNBytes(length);
      }
    }
    List<Method> ms = new ArrayList<>();
    for (int i = 0; i < methodCount; i++) {
      ms.add(new Method(names.get(i), descriptors.get(i), codes.get(i) == null ? Set.of() : uses(codes.get(i), bootstrapArguments)));
    }
    methods = List.copyOf(ms);
    referencedClasses = referencedClasses();
    Set<Member> refs = new LinkedHashSet<>();
    for (int i = 1; i < count; i++) {
      if (tag[i] == 9) {
        refs.add(member(i));
      }
    }
    fieldRefs = refs;
  }

  /** Reads one class file. */
  static ClassFile read(DataInputStream in) throws IOException {
    return new ClassFile(in);
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int attributes = in.readUnsignedShort();
    for (int a = 0; a < attributes; a++) {
      in.readUnsignedShort();
      in.skipNBytes(in.readInt());
    }
  }

  private Set<String> referencedClasses() {
    Set<String> referenced = new TreeSet<>();
    for (int i = 1; i < utf8.length; i++) {
      if (tag[i] == 7) {
        String name = utf8[first[i]];
        name = name.startsWith("[") ? arrayElement(name) : name;
        if (name != null) {
          referenced.add(name);
        }
      }
      if (utf8[i] != null) {
        Matcher m = DESCRIPTOR_CLASS.matcher(utf8[i]);
        while (m.find()) {
          referenced.add(m.group(1));
        }
      }
    }
    return referenced;
  }

  private static String arrayElement(String descriptor) {
    Matcher m = DESCRIPTOR_CLASS.matcher(descriptor);
    return m.find() ? m.group(1) : null;
  }

  /** The member of a Fieldref, Methodref or InterfaceMethodref constant. */
  private Member member(int ref) {
    int nameAndType = second[ref];
    return new Member(utf8[first[first[ref]]], utf8[first[nameAndType]], utf8[second[nameAndType]]);
  }

  /** The members one method's bytecode uses: field and method instructions, method handles it loads or binds. */
  private Set<Member> uses(byte[] code, int[][] bootstrapArguments) {
    Set<Member> out = new LinkedHashSet<>();
    int pc = 0;
    while (pc < code.length) {
      int op = code[pc] & 0xff;
      switch (op) {
        case 0xb2, 0xb3, 0xb4, 0xb5, 0xb6, 0xb7, 0xb8, 0xb9 -> out.add(member(u2(code, pc + 1)));
        case 0x12 -> handle(code[pc + 1] & 0xff, out);
        case 0x13 -> handle(u2(code, pc + 1), out);
        case 0xba -> {
          for (int arg : bootstrapArguments[first[u2(code, pc + 1)]]) {
            handle(arg, out);
          }
        }
        default -> { }
      }
      pc += length(code, pc);
    }
    return out;
  }

  private void handle(int index, Set<Member> out) {
    if (tag[index] == 15) {
      out.add(member(second[index]));
    }
  }

  private static int u2(byte[] code, int at) {
    return ((code[at] & 0xff) << 8) | (code[at + 1] & 0xff);
  }

  private static int s4(byte[] code, int at) {
    return ((code[at] & 0xff) << 24) | ((code[at + 1] & 0xff) << 16) | ((code[at + 2] & 0xff) << 8) | (code[at + 3] & 0xff);
  }

  /** Length of the instruction at {@code pc}, operands included (JVMS §6.5). */
  private static int length(byte[] code, int pc) {
    int op = code[pc] & 0xff;
    if (op == 0xaa || op == 0xab) {
      int at = pc + 1 + ((4 - ((pc + 1) % 4)) % 4);
      if (op == 0xaa) {
        int low = s4(code, at + 4);
        int high = s4(code, at + 8);
        return at + 12 + (high - low + 1) * 4 - pc;
      }
      return at + 8 + s4(code, at + 4) * 8 - pc;
    }
    if (op == 0xc4) {
      return (code[pc + 1] & 0xff) == 0x84 ? 6 : 4;
    }
    if (op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9 || op == 0xbc) {
      return 2;
    }
    if (op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xa8) || (op >= 0xb2 && op <= 0xb8)
        || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 || op == 0xc6 || op == 0xc7) {
      return 3;
    }
    if (op == 0xc5) {
      return 4;
    }
    if (op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9) {
      return 5;
    }
    return 1;
  }
}
