package dev.versio.operator.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;

/** PEM reading and writing: certificates, and private keys as PKCS#8 (what Vert.x reads). */
final class Pem {
  private Pem() {}

  static String certificate(X509Certificate certificate) {
    return write(certificate);
  }

  static String privateKey(PrivateKey key) {
    try {
      return write(new JcaPKCS8Generator(key, null).generate());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Every certificate in {@code pem}, in order; fails when there is none. */
  static List<X509Certificate> certificates(String pem) {
    try {
      var factory = CertificateFactory.getInstance("X.509");
      var certificates =
          factory
              .generateCertificates(
                  new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)))
              .stream()
              .map(X509Certificate.class::cast)
              .toList();
      if (certificates.isEmpty()) {
        throw new IllegalArgumentException("no PEM certificate found");
      }
      return certificates;
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not a PEM certificate: " + e.getMessage(), e);
    }
  }

  private static String write(Object object) {
    var out = new StringWriter();
    try (var writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }
}
