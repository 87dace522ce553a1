/** The conversion webhook runtime: HTTPS transport, review processing, registry and sync. */
package dev.versio.webhook;
