/**
 * The Versio custom resources ({@code versio.dev/v1alpha1}), the CRD/XRD schema adapters and the
 * assignment resolver.
 */
package dev.versio.api;
