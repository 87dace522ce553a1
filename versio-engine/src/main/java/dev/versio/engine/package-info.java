/**
 * The conversion engine: schema flattening, rule compilation, lossiness analysis, plans and
 * hub-and-spoke routing. Pure Java (JDK, Jackson, CEL): no Kubernetes client, no HTTP, no threads,
 * no clock.
 */
package dev.versio.engine;
