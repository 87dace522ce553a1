package dev.versio.cli.offline;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.Locale;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * {@code versio test -o junit}: one {@code <testcase>} per tested path, named after the sample and
 * the path, so CI systems show which conversion lost which field. Unacknowledged loss is a {@code
 * <failure>}, a conversion error an {@code <error>}; acknowledged loss passes and is listed in the
 * case's {@code <system-out>}.
 */
final class JUnitReport {
  private JUnitReport() {}

  static void write(PrintWriter out, String resource, List<TestCommand.PathResult> results) {
    var buffer = new StringWriter();
    try {
      XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(buffer);
      xml.writeStartDocument("UTF-8", "1.0");
      xml.writeCharacters("\n");
      xml.writeStartElement("testsuites");
      xml.writeAttribute("name", "versio test");
      attributes(xml, results);
      xml.writeCharacters("\n  ");
      xml.writeStartElement("testsuite");
      xml.writeAttribute("name", resource);
      attributes(xml, results);
      for (var r : results) {
        testCase(xml, r);
      }
      xml.writeCharacters("\n  ");
      xml.writeEndElement();
      xml.writeCharacters("\n");
      xml.writeEndElement();
      xml.writeEndDocument();
      xml.close();
    } catch (XMLStreamException e) {
      throw new IllegalStateException("cannot write the JUnit report: " + e.getMessage(), e);
    }
    out.println(buffer);
    out.flush();
  }

  private static void attributes(XMLStreamWriter xml, List<TestCommand.PathResult> results)
      throws XMLStreamException {
    xml.writeAttribute("tests", Integer.toString(results.size()));
    xml.writeAttribute("failures", Long.toString(count(results, "fail")));
    xml.writeAttribute("errors", Long.toString(count(results, "error")));
    xml.writeAttribute("skipped", "0");
  }

  private static void testCase(XMLStreamWriter xml, TestCommand.PathResult r)
      throws XMLStreamException {
    var sample = r.sample().label();
    xml.writeCharacters("\n    ");
    xml.writeStartElement("testcase");
    xml.writeAttribute("classname", sample);
    xml.writeAttribute("name", r.from() + " -> " + r.to() + " -> " + r.from());
    if (r.sample().file() != null) {
      xml.writeAttribute("file", r.sample().file().toString());
    }
    switch (r.result()) {
      case "fail" -> {
        element(
            xml,
            "failure",
            "unacknowledged loss of " + String.join(", ", r.lost()),
            "fields that do not come back and no lossy, acknowledged rule claims them:\n"
                + String.join("\n", r.lost())
                + "\nfix: add a rule that keeps them (e.g. toAnnotation), or mark the rule that"
                + " drops them acknowledgeLossy with a reason");
      }
      case "error" -> element(xml, "error", r.error(), r.error());
      case "pass", "loss" -> {
        if (!r.acknowledged().isEmpty()) {
          xml.writeCharacters("\n      ");
          xml.writeStartElement("system-out");
          xml.writeCharacters("acknowledged loss: " + String.join(", ", r.acknowledged()));
          xml.writeEndElement();
        }
      }
      default ->
          throw new IllegalStateException("unknown result " + r.result().toUpperCase(Locale.ROOT));
    }
    xml.writeEndElement();
  }

  private static void element(XMLStreamWriter xml, String name, String message, String body)
      throws XMLStreamException {
    xml.writeCharacters("\n      ");
    xml.writeStartElement(name);
    xml.writeAttribute("message", message == null ? "" : message);
    xml.writeAttribute("type", name.equals("failure") ? "UnacknowledgedLoss" : "ConversionError");
    xml.writeCharacters(body == null ? "" : body);
    xml.writeEndElement();
  }

  private static long count(List<TestCommand.PathResult> results, String kind) {
    return results.stream().filter(r -> r.result().equals(kind)).count();
  }
}
