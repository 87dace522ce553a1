/** JMH benchmarks of the engine and the webhook runtime; not part of the test run. */
package dev.versio.bench;
