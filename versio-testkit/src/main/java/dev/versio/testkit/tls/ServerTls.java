package dev.versio.testkit.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/** Builds a JDK {@link SSLContext} that serves with a PEM certificate and PKCS#8 EC key. */
public final class ServerTls {
  private ServerTls() {}

  public static SSLContext context(PemMaterial material) {
    try {
      var cert =
          CertificateFactory.getInstance("X.509")
              .generateCertificate(
                  new ByteArrayInputStream(
                      material.certificatePem().getBytes(StandardCharsets.US_ASCII)));
      var base64 =
          material
              .privateKeyPem()
              .replaceAll("-----(BEGIN|END) PRIVATE KEY-----", "")
              .replaceAll("\\s", "");
      var key =
          KeyFactory.getInstance("EC")
              .generatePrivate(new PKCS8EncodedKeySpec(Base64.getDecoder().decode(base64)));
      var password = new char[0];
      var store = KeyStore.getInstance("PKCS12");
      store.load(null, null);
      store.setKeyEntry("server", key, password, new Certificate[] {cert});
      var kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
      kmf.init(store, password);
      var context = SSLContext.getInstance("TLS");
      context.init(kmf.getKeyManagers(), null, new SecureRandom());
      return context;
    } catch (GeneralSecurityException | IOException e) {
      throw new IllegalStateException("cannot build a server TLS context from the PEM material", e);
    }
  }
}
