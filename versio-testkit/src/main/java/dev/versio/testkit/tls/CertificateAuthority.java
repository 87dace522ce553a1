package dev.versio.testkit.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Objects;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x500.X500NameBuilder;
import org.bouncycastle.asn1.x500.style.BCStyle;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509ExtensionUtils;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A throw-away certificate authority for tests: mints serving certificates (with IP and DNS subject
 * alternative names, as Go's TLS stack requires) and client certificates whose subject carries a
 * Kubernetes user (CN) and groups (O). Keys are EC P-256, written as PKCS#8 PEM.
 */
public final class CertificateAuthority {
  private static final Duration VALIDITY = Duration.ofDays(2);

  private final KeyPair keyPair;
  private final X509Certificate certificate;
  private final SecureRandom random = new SecureRandom();

  private CertificateAuthority(KeyPair keyPair, X509Certificate certificate) {
    this.keyPair = keyPair;
    this.certificate = certificate;
  }

  /** Creates a new self-signed CA named {@code commonName}. */
  public static CertificateAuthority create(String commonName) {
    var keys = newKeyPair();
    var name = new X500Name("CN=" + commonName);
    var now = Instant.now();
    try {
      var builder =
          new JcaX509v3CertificateBuilder(
              name,
              BigInteger.valueOf(now.toEpochMilli()),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(VALIDITY)),
              name,
              keys.getPublic());
      var ext = new JcaX509ExtensionUtils();
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
      builder.addExtension(
          Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
      builder.addExtension(
          Extension.subjectKeyIdentifier, false, ext.createSubjectKeyIdentifier(keys.getPublic()));
      return new CertificateAuthority(keys, sign(builder, keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot create a test CA", e);
    }
  }

  /** The CA certificate as PEM: what a {@code caBundle} or a kubeconfig's CA data holds. */
  public String certificatePem() {
    return pem(certificate);
  }

  /** The CA certificate and key, for processes that must sign with it. */
  public PemMaterial material() {
    return new PemMaterial(certificatePem(), pkcs8(keyPair.getPrivate()));
  }

  /**
   * A serving certificate for {@code hosts}: each entry is an IP literal (becomes an IP SAN) or a
   * DNS name.
   */
  public PemMaterial issueServer(String... hosts) {
    if (hosts.length == 0) {
      throw new IllegalArgumentException("a serving certificate needs at least one host");
    }
    var names = new ArrayList<GeneralName>();
    for (var host : hosts) {
      names.add(
          isIpLiteral(host)
              ? new GeneralName(GeneralName.iPAddress, host)
              : new GeneralName(GeneralName.dNSName, host));
    }
    return issue(
        new X500Name("CN=" + hosts[0]),
        KeyPurposeId.id_kp_serverAuth,
        new GeneralNames(names.toArray(GeneralName[]::new)));
  }

  /** A client certificate that Kubernetes reads as user {@code user} in {@code groups}. */
  public PemMaterial issueClient(String user, List<String> groups) {
    Objects.requireNonNull(user, "user");
    var name = new X500NameBuilder(BCStyle.INSTANCE);
    for (var group : groups) {
      name.addRDN(BCStyle.O, group);
    }
    name.addRDN(BCStyle.CN, user);
    return issue(name.build(), KeyPurposeId.id_kp_clientAuth, null);
  }

  /** An SSL context that trusts exactly this CA. */
  public SSLContext trustingContext() {
    try {
      var store = KeyStore.getInstance(KeyStore.getDefaultType());
      store.load(null, null);
      store.setCertificateEntry("ca", certificate);
      var tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(store);
      var context = SSLContext.getInstance("TLS");
      context.init(null, tmf.getTrustManagers(), random);
      return context;
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot build a trust store for the test CA", e);
    }
  }

  /** Parses the first certificate of a PEM text. */
  public static X509Certificate parseCertificate(String pem) {
    try {
      var factory = CertificateFactory.getInstance("X.509");
      return (X509Certificate)
          factory.generateCertificate(
              new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    } catch (GeneralSecurityException e) {
      throw new IllegalArgumentException("not a PEM certificate", e);
    }
  }

  private PemMaterial issue(X500Name subject, KeyPurposeId purpose, GeneralNames sans) {
    var keys = newKeyPair();
    var now = Instant.now();
    try {
      var ext = new JcaX509ExtensionUtils();
      var builder =
          new JcaX509v3CertificateBuilder(
              certificate,
              new BigInteger(64, random).abs().add(BigInteger.ONE),
              Date.from(now.minus(Duration.ofMinutes(5))),
              Date.from(now.plus(VALIDITY)),
              subject,
              keys.getPublic());
      builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
      builder.addExtension(
          Extension.keyUsage,
          true,
          new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
      builder.addExtension(Extension.extendedKeyUsage, false, new ExtendedKeyUsage(purpose));
      builder.addExtension(
          Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(certificate));
      if (sans != null) {
        builder.addExtension(Extension.subjectAlternativeName, false, sans);
      }
      var cert = sign(builder, keyPair.getPrivate());
      return new PemMaterial(pem(cert), pkcs8(keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a test certificate for " + subject, e);
    }
  }

  private static X509Certificate sign(X509v3CertificateBuilder builder, PrivateKey signer)
      throws GeneralSecurityException {
    try {
      var contentSigner = new JcaContentSignerBuilder("SHA256withECDSA").build(signer);
      return new JcaX509CertificateConverter().getCertificate(builder.build(contentSigner));
    } catch (OperatorCreationException e) {
      throw new GeneralSecurityException(e);
    }
  }

  private static KeyPair newKeyPair() {
    try {
      var generator = KeyPairGenerator.getInstance("EC");
      generator.initialize(new ECGenParameterSpec("secp256r1"));
      return generator.generateKeyPair();
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("EC P-256 is not available in this JDK", e);
    }
  }

  private static boolean isIpLiteral(String host) {
    if (!host.matches("[0-9.]+|[0-9a-fA-F:]+") || !host.matches(".*[.:].*")) {
      return false;
    }
    try {
      InetAddress.getByName(host);
      return true;
    } catch (IOException e) {
      return false;
    }
  }

  private static String pem(Object object) {
    var out = new StringWriter();
    try (var writer = new JcaPEMWriter(out)) {
      writer.writeObject(object);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString();
  }

  private static String pkcs8(PrivateKey key) {
    try {
      return pem(new JcaPKCS8Generator(key, null).generate());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
