package dev.versio.engine.runtime;

import java.math.BigInteger;

/**
 * Text forms of an integer amount: a Kubernetes quantity (in milli-units) or a Go duration (in
 * seconds).
 */
public enum IntegerText {
  QUANTITY("a quantity string", "an integer of milli-units") {
    @Override
    BigInteger parse(String text) {
      return Quantities.parseMilli(text);
    }

    @Override
    String format(BigInteger value) {
      return Quantities.formatMilli(value);
    }
  },
  DURATION("a duration string", "whole seconds") {
    @Override
    BigInteger parse(String text) {
      return Durations.parseSeconds(text);
    }

    @Override
    String format(BigInteger value) {
      return Durations.formatSeconds(value);
    }
  };

  final String textName;
  final String integerName;

  IntegerText(String textName, String integerName) {
    this.textName = textName;
    this.integerName = integerName;
  }

  abstract BigInteger parse(String text);

  abstract String format(BigInteger value);
}
