/**
 * TLS material the operator issues itself, without cert-manager: a self-signed CA and one serving
 * certificate ({@link dev.versio.operator.tls.SelfSignedCa}), checked for fitness ({@link
 * dev.versio.operator.tls.TlsMaterial}) and kept in a Secret that concurrent replicas share ({@link
 * dev.versio.operator.tls.TlsSecret}).
 */
package dev.versio.operator.tls;
