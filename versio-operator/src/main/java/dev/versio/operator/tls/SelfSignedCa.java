package dev.versio.operator.tls;

import java.io.IOException;
import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.List;
import java.util.Objects;
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
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * Issues self-signed CAs and serving certificates signed by them (EC P-256, SHA-256). {@link
 * #issue} makes a CA that signs exactly once and is then dropped (the admission webhook's material:
 * renewal issues a new CA, and callers keep the previous CA in the bundle while it is valid);
 * {@link #newCa} and {@link #leaf} make a CA that is kept and signs leaf after leaf (the webhook
 * servers' installation CA, whose bundle outlives its leaves).
 */
public final class SelfSignedCa {
  /** How long a CA and its serving certificate are valid. */
  public static final Duration DEFAULT_VALIDITY = Duration.ofDays(365);

  /**
   * Back-dating of {@code notBefore}, for clocks that run behind (another operator replica, a
   * replica's node) — an hour, so that a lagging clock never finds new material not valid yet.
   */
  static final Duration CLOCK_SKEW = Duration.ofHours(1);

  private SelfSignedCa() {}

  /**
   * A new CA named after {@code commonName} and a serving certificate for {@code hosts} (IP
   * literals become IP SANs, everything else DNS SANs), both valid from {@code now} for {@code
   * validity}.
   */
  public static TlsMaterial issue(
      String commonName, List<String> hosts, Instant now, Duration validity) {
    Objects.requireNonNull(commonName, "commonName");
    Objects.requireNonNull(now, "now");
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("a serving certificate needs at least one host");
    }
    if (validity.isNegative() || validity.isZero()) {
      throw new IllegalArgumentException("validity must be positive");
    }
    return leaf(newCa(commonName, now, validity), hosts, now, validity);
  }

  /** A CA certificate and its key, PEM (the key as PKCS#8). */
  public record CaPair(String certificatePem, String privateKeyPem) {
    public CaPair {
      Objects.requireNonNull(certificatePem, "certificatePem");
      Objects.requireNonNull(privateKeyPem, "privateKeyPem");
    }

    /** The CA certificate. */
    public X509Certificate certificate() {
      return Pem.certificates(certificatePem).getFirst();
    }

    /** When the CA ends. */
    public Instant notAfter() {
      return certificate().getNotAfter().toInstant();
    }
  }

  /**
   * A new self-signed CA named {@code <commonName> CA}, valid from {@code now} for {@code
   * validity}.
   */
  public static CaPair newCa(String commonName, Instant now, Duration validity) {
    Objects.requireNonNull(commonName, "commonName");
    if (validity.isNegative() || validity.isZero()) {
      throw new IllegalArgumentException("validity must be positive");
    }
    try {
      var caKeys = newKeyPair();
      var caSubject =
          new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, commonName + " CA").build();
      var ext = new JcaX509ExtensionUtils();
      var ca =
          builder(caSubject, caSubject, caKeys, now, validity, new SecureRandom())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(0))
              .addExtension(
                  Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign))
              .addExtension(
                  Extension.subjectKeyIdentifier,
                  false,
                  ext.createSubjectKeyIdentifier(caKeys.getPublic()));
      var caCert = sign(ca, caKeys.getPrivate());
      return new CaPair(Pem.certificate(caCert), Pem.privateKey(caKeys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a CA for " + commonName, e);
    }
  }

  /**
   * A serving certificate for {@code hosts} signed by {@code ca}, valid from {@code now} for {@code
   * validity} but never past the CA's own end; the material's bundle is {@code ca} alone.
   */
  public static TlsMaterial leaf(CaPair ca, List<String> hosts, Instant now, Duration validity) {
    if (hosts.isEmpty()) {
      throw new IllegalArgumentException("a serving certificate needs at least one host");
    }
    if (validity.isNegative() || validity.isZero()) {
      throw new IllegalArgumentException("validity must be positive");
    }
    try {
      var caCert = ca.certificate();
      var caKey = dev.versio.api.tls.KeyPairs.privateKey(ca.privateKeyPem());
      var caSubject = X500Name.getInstance(caCert.getSubjectX500Principal().getEncoded());
      var ext = new JcaX509ExtensionUtils();
      var keys = newKeyPair();
      var subject = new X500NameBuilder(BCStyle.INSTANCE).addRDN(BCStyle.CN, hosts.getFirst());
      var sans =
          hosts.stream()
              .map(
                  h ->
                      Hosts.ipLiteral(h)
                          .map(ip -> new GeneralName(GeneralName.iPAddress, ip.getHostAddress()))
                          .orElseGet(() -> new GeneralName(GeneralName.dNSName, h)))
              .toArray(GeneralName[]::new);
      var remaining = Duration.between(now, caCert.getNotAfter().toInstant());
      if (!remaining.isPositive()) {
        throw new IllegalArgumentException(
            "the CA "
                + caCert.getSubjectX500Principal().getName()
                + " has ended: it signs nothing");
      }
      var lifetime = remaining.compareTo(validity) < 0 ? remaining : validity;
      var serving =
          builder(caSubject, subject.build(), keys, now, lifetime, new SecureRandom())
              .addExtension(Extension.basicConstraints, true, new BasicConstraints(false))
              .addExtension(
                  Extension.keyUsage,
                  true,
                  new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment))
              .addExtension(
                  Extension.extendedKeyUsage,
                  false,
                  new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth))
              .addExtension(
                  Extension.authorityKeyIdentifier, false, ext.createAuthorityKeyIdentifier(caCert))
              .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(sans));
      var servingCert = sign(serving, caKey);
      return new TlsMaterial(
          ca.certificatePem(), Pem.certificate(servingCert), Pem.privateKey(keys.getPrivate()));
    } catch (IOException | GeneralSecurityException e) {
      throw new IllegalStateException("cannot issue a certificate for " + hosts, e);
    }
  }

  private static X509v3CertificateBuilder builder(
      X500Name issuer,
      X500Name subject,
      KeyPair keys,
      Instant now,
      Duration validity,
      SecureRandom random) {
    return new JcaX509v3CertificateBuilder(
        issuer,
        new BigInteger(63, random).add(BigInteger.ONE),
        Date.from(now.minus(CLOCK_SKEW)),
        Date.from(now.plus(validity)),
        subject,
        keys.getPublic());
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

  private static KeyPair newKeyPair() throws GeneralSecurityException {
    var generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    return generator.generateKeyPair();
  }
}
