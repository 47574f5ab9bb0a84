package dev.headroom.controller.http;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;

/**
 * A self-signed X.509 v3 certificate for the metrics endpoint when no certificate file is given: an EC P-256 key,
 * signed with SHA256withECDSA, the DNS names as subject alternative names. The DER is written here (the JDK has no
 * public certificate builder) and read back through {@link CertificateFactory}, which checks it.
 */
public final class SelfSignedCertificate {
  private static final int SEQUENCE = 0x30;
  private static final int SET = 0x31;

  /** The key pair and its certificate. */
  public record Material(KeyPair keys, X509Certificate certificate) {}

  private SelfSignedCertificate() {}

  /** A certificate for {@code commonName} and {@code dnsNames}, valid from {@code notBefore} for {@code validity}. */
  public static Material generate(String commonName, List<String> dnsNames, Instant notBefore, Duration validity, SecureRandom random)
      throws GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
    g.initialize(new ECGenParameterSpec("secp256r1"), random);
    KeyPair keys = g.generateKeyPair();
    byte[] algorithm = der(SEQUENCE, oid(1, 2, 840, 10045, 4, 3, 2)); // ecdsa-with-SHA256, no parameters
    byte[] name = der(SEQUENCE, der(SET, der(SEQUENCE, oid(2, 5, 4, 3), der(0x0c, commonName.getBytes(StandardCharsets.UTF_8)))));
    byte[] serial = new byte[16];
    random.nextBytes(serial);
    serial[0] &= 0x7f;
    serial[0] |= 0x01;
    ByteArrayOutputStream sans = new ByteArrayOutputStream();
    for (String dns : dnsNames) {
      sans.writeBytes(der(0x82, dns.getBytes(StandardCharsets.US_ASCII)));
    }
    byte[] subjectAltName = der(SEQUENCE, oid(2, 5, 29, 17), der(0x04, der(SEQUENCE, sans.toByteArray())));
    byte[] basicConstraints = der(SEQUENCE, oid(2, 5, 29, 19), der(0x04, der(SEQUENCE)));
    byte[] tbs = der(SEQUENCE,
        der(0xa0, der(0x02, new byte[] {2})), // v3
        der(0x02, new BigInteger(1, serial).toByteArray()),
        algorithm,
        name,
        der(SEQUENCE, time(notBefore), time(notBefore.plus(validity))),
        name,
        keys.getPublic().getEncoded(),
        der(0xa3, der(SEQUENCE, basicConstraints, subjectAltName)));
    Signature s = Signature.getInstance("SHA256withECDSA");
    s.initSign(keys.getPrivate(), random);
    s.update(tbs);
    byte[] sig = s.sign();
    byte[] bits = new byte[sig.length + 1];
    System.arraycopy(sig, 0, bits, 1, sig.length);
    byte[] cert = der(SEQUENCE, tbs, algorithm, der(0x03, bits));
    X509Certificate x509 = (X509Certificate) CertificateFactory.getInstance("X.509").generateCertificate(new ByteArrayInputStream(cert));
    x509.verify(keys.getPublic());
    return new Material(keys, x509);
  }

  private static byte[] time(Instant t) {
    int year = t.atZone(ZoneOffset.UTC).getYear();
    if (year < 2050) {
      return der(0x17, DateTimeFormatter.ofPattern("yyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(t).getBytes(StandardCharsets.US_ASCII));
    }
    return der(0x18, DateTimeFormatter.ofPattern("yyyyMMddHHmmss'Z'").withZone(ZoneOffset.UTC).format(t).getBytes(StandardCharsets.US_ASCII));
  }

  private static byte[] oid(int... arcs) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    out.write(arcs[0] * 40 + arcs[1]);
    for (int i = 2; i < arcs.length; i++) {
      int v = arcs[i];
      byte[] tmp = new byte[5];
      int n = 0;
      do {
        tmp[n++] = (byte) (v & 0x7f);
        v >>>= 7;
      } while (v != 0);
      for (int j = n - 1; j >= 0; j--) {
        out.write(tmp[j] | (j > 0 ? 0x80 : 0));
      }
    }
    return der(0x06, out.toByteArray());
  }

  private static byte[] der(int tag, byte[]... parts) {
    ByteArrayOutputStream body = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      body.writeBytes(p);
    }
    int len = body.size();
    ByteArrayOutputStream out = new ByteArrayOutputStream(len + 6);
    out.write(tag);
    if (len < 0x80) {
      out.write(len);
    } else if (len < 0x100) {
      out.write(0x81);
      out.write(len);
    } else {
      out.write(0x82);
      out.write(len >>> 8);
      out.write(len & 0xff);
    }
    out.writeBytes(body.toByteArray());
    return out.toByteArray();
  }
}
