package dev.versio.engine.rule.catalog;

import static dev.versio.engine.rule.catalog.ParamSpec.choice;
import static dev.versio.engine.rule.catalog.ParamSpec.required;
import static dev.versio.engine.rule.catalog.ParamType.NUMBER;
import static dev.versio.engine.rule.catalog.ParamType.PATH;
import static dev.versio.engine.rule.catalog.SpecBuilder.hubPath;
import static dev.versio.engine.rule.catalog.SpecBuilder.spec;
import static dev.versio.engine.rule.catalog.SpecBuilder.spokePath;

import dev.versio.engine.rule.Rule.FractionalPolicy;
import dev.versio.engine.rule.Strategy;

/** Strategies that convert one scalar: coercion, scaling, quantities and durations. */
final class ScalarStrategies {
  private ScalarStrategies() {}

  static StrategySpec typeCoerce() {
    return spec(
            Strategy.TYPE_COERCE,
            "Converts a scalar between string, integer, number and boolean, exactly.")
        .param(required("path", PATH, "The field, at the same path on both sides."))
        .param(
            choice(
                "onFractionalInteger",
                FractionalPolicy.class,
                FractionalPolicy.ERROR,
                "What happens to a fraction going into an integer: fail the conversion,"
                    + " truncate it, or round it half away from zero."))
        .hubToSpoke(
            "Writes the hub value as the spoke's type.",
            "Unless the hub side is a string (text loses its spelling: `\"05\"` comes back as"
                + " `\"5\"`; lossless into an integer or a boolean when the string's `enum`,"
                + " `pattern` or `maxLength` admits only the spelling that prints back, e.g."
                + " `pattern: '^(0|[1-9][0-9]*)$'`), or a number goes into an integer with"
                + " `Truncate` or `Round`.")
        .spokeToHub(
            "Writes the spoke value as the hub's type.",
            "Unless the spoke side is a string (lossless as above when its schema admits only"
                + " canonical spellings), or a number goes into an integer with `Truncate` or"
                + " `Round`.")
        .note(
            "Integers of any size print as their digits and decimals keep their written digits"
                + " (`1.50` stays `1.50`); text parses with surrounding spaces and `_` removed;"
                + " booleans accept Go's spellings (`t`, `TRUE`, `1`, …); a number never becomes a"
                + " boolean. A value that cannot be converted fails the conversion.")
        .schemas("port: {type: integer}\n", "port: {type: string}\n")
        .rule(
            """
            - strategy: TypeCoerce
              typeCoerce:
                path: spec.port
              acknowledgeLossy: true
              reason: v1 wrote ports as text; a spelling such as "08080" comes back as 8080
            """)
        .objects("spec: {port: 8080}\n", "spec: {port: '8080'}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec numericScale() {
    return spec(Strategy.NUMERIC_SCALE, "Converts a number between units: `hub = spoke × factor`.")
        .param(hubPath("The integer or number on the hub."))
        .param(spokePath("The integer or number on the spoke."))
        .param(required("factor", NUMBER, "The scale, not 0: `hub = spoke × factor`."))
        .hubToSpoke(
            "Writes `hub ÷ factor` (rounded half away from zero into an integer).",
            "Into a number: when `1/factor` is a finite decimal (factors such as 1000 or 0.25)."
                + " Into an integer: only from an integer with a factor of 1 or -1.")
        .spokeToHub(
            "Writes `spoke × factor` (rounded half away from zero into an integer).",
            "Into a number: always. Into an integer: when the spoke is an integer and the factor"
                + " is whole.")
        .schemas("timeoutMs: {type: integer}\n", "timeoutSec: {type: number}\n")
        .rule(
            """
            - strategy: NumericScale
              numericScale:
                hubPath: spec.timeoutMs
                spokePath: spec.timeoutSec
                factor: 1000
              acknowledgeLossy: true
              reason: sub-millisecond timeouts set in v1 are rounded
            """)
        .objects("spec: {timeoutMs: 1500}\n", "spec: {timeoutSec: 1.5}\n")
        .lossless(true, false)
        .build();
  }

  static StrategySpec quantity() {
    return spec(
            Strategy.QUANTITY,
            "Converts a Kubernetes quantity (`250m`, `1Gi`) to an integer of milli-units and"
                + " back.")
        .param(hubPath("The quantity string or the integer on the hub."))
        .param(spokePath("The other one on the spoke."))
        .hubToSpoke(
            "A string hub: parses it into milli-units (`1Gi` → 1073741824000). An integer hub:"
                + " writes the canonical quantity (`250` → `250m`).",
            "From the integer: always. From the string: no (`1Gi` comes back as `1073741824`).")
        .spokeToHub("The same conversion, the other way.", "Mirrored: from the integer only.")
        .note(
            "One side must be a string and the other an integer. Parsing is exact (decimal and"
                + " binary suffixes, exponents); a sub-milli remainder is rounded up.")
        .schemas("memory: {type: string}\n", "memoryMilli: {type: integer}\n")
        .rule(
            """
            - strategy: Quantity
              quantity:
                hubPath: spec.memory
                spokePath: spec.memoryMilli
              acknowledgeLossy: true
              reason: the spoke keeps the amount, not the spelling
            """)
        .objects("spec: {memory: 1Gi}\n", "spec: {memoryMilli: 1073741824000}\n")
        .back("spec: {memory: '1073741824'}\n")
        .lossless(false, true)
        .build();
  }

  static StrategySpec duration() {
    return spec(
            Strategy.DURATION,
            "Converts a Go duration string (`1h30m`) to an integer of seconds and back.")
        .param(hubPath("The duration string or the integer on the hub."))
        .param(spokePath("The other one on the spoke."))
        .hubToSpoke(
            "An integer hub: writes Go's `Duration.String()` form (5400 → `1h30m0s`). A string"
                + " hub: parses it into whole seconds.",
            "From the integer: always. From the string: no (`90m` comes back as `1h30m0s`).")
        .spokeToHub("The same conversion, the other way.", "Mirrored: from the integer only.")
        .note(
            "One side must be a string and the other an integer. Go's units apply (`ns` to `h`,"
                + " decimals allowed, no `d`); a duration that is not a whole number of seconds"
                + " fails the conversion.")
        .schemas("gracePeriodSeconds: {type: integer}\n", "gracePeriod: {type: string}\n")
        .rule(
            """
            - strategy: Duration
              duration:
                hubPath: spec.gracePeriodSeconds
                spokePath: spec.gracePeriod
              acknowledgeLossy: true
              reason: a v1 spelling such as 90m comes back as 1h30m0s
            """)
        .objects("spec: {gracePeriodSeconds: 5400}\n", "spec: {gracePeriod: 1h30m0s}\n")
        .lossless(true, false)
        .build();
  }
}
