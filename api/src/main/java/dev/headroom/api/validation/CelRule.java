package dev.headroom.api.validation;

import java.util.Map;

/**
 * The subset of CEL that the CapacityBuffer schema's {@code x-kubernetes-validations} use: {@code has(self.f)},
 * {@code true}, {@code false}, {@code !}, {@code &&}, {@code ||} and parentheses, with CEL's precedence
 * ({@code !} over {@code &&} over {@code ||}). {@code has(self.f)} is true when the field is present (after the API
 * server has dropped null values), whatever its value. Any other syntax is rejected when the rule is compiled, so a
 * new rule in the CRD cannot be silently mis-evaluated.
 */
final class CelRule {
  private final String source;
  private final Expr expr;

  private CelRule(String source, Expr expr) {
    this.source = source;
    this.expr = expr;
  }

  /** Compiles a rule; throws {@link IllegalArgumentException} for syntax outside the supported subset. */
  static CelRule compile(String source) {
    Parser p = new Parser(source);
    Expr e = p.or();
    p.skipSpace();
    if (p.pos != source.length()) {
      throw p.error("unexpected input");
    }
    return new CelRule(source, e);
  }

  /** Evaluates the rule with {@code self} bound to an object. */
  boolean evaluate(Map<String, ?> self) {
    return expr.eval(self);
  }

  String source() {
    return source;
  }

  private sealed interface Expr permits Not, And, Or, Has, Const {
    boolean eval(Map<String, ?> self);
  }

  private record Not(Expr e) implements Expr {
    public boolean eval(Map<String, ?> self) { return !e.eval(self); }
  }

  private record And(Expr l, Expr r) implements Expr {
    public boolean eval(Map<String, ?> self) { return l.eval(self) && r.eval(self); }
  }

  private record Or(Expr l, Expr r) implements Expr {
    public boolean eval(Map<String, ?> self) { return l.eval(self) || r.eval(self); }
  }

  private record Has(String field) implements Expr {
    public boolean eval(Map<String, ?> self) { return self.containsKey(field); }
  }

  private record Const(boolean value) implements Expr {
    public boolean eval(Map<String, ?> self) { return value; }
  }

  private static final class Parser {
    private final String s;
    private int pos;

    Parser(String s) {
      this.s = s;
    }

    Expr or() {
      Expr left = and();
      while (consume("||")) {
        left = new Or(left, and());
      }
      return left;
    }

    Expr and() {
      Expr left = unary();
      while (consume("&&")) {
        left = new And(left, unary());
      }
      return left;
    }

    Expr unary() {
      if (consume("!")) {
        return new Not(unary());
      }
      if (consume("(")) {
        Expr e = or();
        expect(")");
        return e;
      }
      if (consumeWord("true")) {
        return new Const(true);
      }
      if (consumeWord("false")) {
        return new Const(false);
      }
      if (consumeWord("has")) {
        expect("(");
        expect("self");
        expect(".");
        Expr e = new Has(identifier());
        expect(")");
        return e;
      }
      throw error("expected !, (, true, false or has(self.<field>)");
    }

    private String identifier() {
      skipSpace();
      int start = pos;
      while (pos < s.length() && (Character.isLetterOrDigit(s.charAt(pos)) || s.charAt(pos) == '_')) {
        pos++;
      }
      if (start == pos || Character.isDigit(s.charAt(start))) {
        throw error("expected a field name");
      }
      return s.substring(start, pos);
    }

    private boolean consumeWord(String word) {
      skipSpace();
      int end = pos + word.length();
      if (s.startsWith(word, pos) && (end == s.length() || !Character.isLetterOrDigit(s.charAt(end)) && s.charAt(end) != '_')) {
        pos = end;
        return true;
      }
      return false;
    }

    private boolean consume(String token) {
      skipSpace();
      if (s.startsWith(token, pos)) {
        pos += token.length();
        return true;
      }
      return false;
    }

    private void expect(String token) {
      if (!consume(token)) {
        throw error("expected '" + token + "'");
      }
    }

    void skipSpace() {
      while (pos < s.length() && Character.isWhitespace(s.charAt(pos))) {
        pos++;
      }
    }

    IllegalArgumentException error(String what) {
      return new IllegalArgumentException("unsupported CEL rule at offset " + pos + " (" + what + "): " + s);
    }
  }
}
