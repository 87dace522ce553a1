/** The Versio operator: reconcilers, owned-object builders, admission and the handover gate. */
package dev.versio.operator;
