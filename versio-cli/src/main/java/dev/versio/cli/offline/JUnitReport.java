package dev.versio.cli.offline;

import java.io.PrintWriter;
import java.io.StringWriter;
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

  static void write(PrintWriter out, TestReport report) {
    var buffer = new StringWriter();
    var results = report.paths();
    var resource = report.resource() == null ? "versio test" : report.resource();
    try {
      XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(buffer);
      xml.writeStartDocument("UTF-8", "1.0");
      xml.writeCharacters("\n");
      xml.writeStartElement("testsuites");
      xml.writeAttribute("name", "versio test");
      xml.writeCharacters("\n  ");
      xml.writeStartElement("testsuite");
      xml.writeAttribute("name", resource);
      // unexercised rules are failures under --strict, and those inside opaque fields always
      var failingRules = report.strict() ? report.unexercised() : report.uncheckedInsideOpaque();
      int strictFailures =
          failingRules.size() + (report.strict() && !report.schema().isEmpty() ? 1 : 0);
      xml.writeAttribute(
          "tests",
          Integer.toString(
              results.size() + (report.ran() ? 0 : 1) + strictFailures + report.skipped().size()));
      xml.writeAttribute("failures", Long.toString(report.count("fail") + strictFailures));
      xml.writeAttribute("errors", Long.toString(report.count("error") + (report.ran() ? 0 : 1)));
      xml.writeAttribute("skipped", Integer.toString(report.skipped().size()));
      if (!report.ran()) {
        notRun(xml, report);
      }
      for (var r : results) {
        testCase(xml, r);
      }
      for (var rule : failingRules) {
        xml.writeCharacters("\n    ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", "rule coverage");
        xml.writeAttribute("name", rule.id());
        element(
            xml,
            "failure",
            "UnexercisedRule",
            "no sample exercised " + rule.id(),
            rule.insideOpaque()
                ? "the rule converts fields the schemas leave opaque: only samples check it; add"
                    + " a sample that sets its fields"
                : "add a sample that sets the fields of this rule (--strict)");
        xml.writeEndElement();
      }
      if (report.strict()) {
        if (!report.schema().isEmpty()) {
          xml.writeCharacters("\n    ");
          xml.writeStartElement("testcase");
          xml.writeAttribute("classname", "schema");
          xml.writeAttribute("name", "objects conform to their version's schema");
          element(
              xml,
              "failure",
              "SchemaFinding",
              report.schema().size() + " object field(s) the apiserver would prune or reject",
              String.join(
                  "\n",
                  report.schema().stream()
                      .map(
                          s ->
                              s.sample().label()
                                  + " "
                                  + s.version()
                                  + " ("
                                  + s.object()
                                  + "): "
                                  + s.finding().message())
                      .toList()));
          xml.writeEndElement();
        }
      }
      for (var skipped : report.skipped()) {
        xml.writeCharacters("\n    ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", "skipped documents");
        xml.writeAttribute("name", skipped.where());
        xml.writeCharacters("\n      ");
        xml.writeStartElement("skipped");
        xml.writeAttribute("message", skipped.reason());
        xml.writeEndElement();
        xml.writeEndElement();
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

  /** Nothing was tested: one error case that says why, so CI shows it. */
  private static void notRun(XMLStreamWriter xml, TestReport report) throws XMLStreamException {
    xml.writeCharacters("\n    ");
    xml.writeStartElement("testcase");
    xml.writeAttribute("classname", report.config() == null ? "inputs" : report.config());
    xml.writeAttribute("name", "the config compiles and the inputs can be read");
    var lines =
        report.configErrors().stream()
            .map(
                d ->
                    (d.spoke() == null ? "" : "[" + d.spoke() + "] ")
                        + (d.ruleLocation().isEmpty() ? "" : d.ruleLocation() + ": ")
                        + (d.path() == null ? "" : d.path() + ": ")
                        + d.message())
            .toList();
    var message = report.problem() == null ? "the config does not compile" : report.problem();
    element(
        xml, "error", "NotTested", message, lines.isEmpty() ? message : String.join("\n", lines));
    xml.writeEndElement();
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
        if (!r.rejected().isEmpty()) {
          element(
              xml,
              "failure",
              "Rejected",
              "the apiserver would reject the object converted to " + r.to(),
              String.join("\n", r.rejected())
                  + "\nfix: make the rules write what the "
                  + r.to()
                  + " schema admits");
        } else {
          var unacknowledged =
              r.changes().stream().filter(c -> !c.acknowledged()).map(c -> c.path()).toList();
          element(
              xml,
              "failure",
              "UnacknowledgedLoss",
              "unacknowledged change of " + String.join(", ", unacknowledged),
              "fields that do not come back as they were (or come back although they were not"
                  + " there) and no lossy, acknowledged rule claims them:\n"
                  + String.join("\n", unacknowledged)
                  + "\nfix: add a rule that keeps them (e.g. ToAnnotation), or mark the rule that"
                  + " drops them acknowledgeLossy with a reason");
        }
      }
      case "error" -> element(xml, "error", "ConversionError", r.error(), r.error());
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

  private static void element(
      XMLStreamWriter xml, String name, String type, String message, String body)
      throws XMLStreamException {
    xml.writeCharacters("\n      ");
    xml.writeStartElement(name);
    xml.writeAttribute("message", message == null ? "" : message);
    xml.writeAttribute("type", type);
    xml.writeCharacters(body == null ? "" : body);
    xml.writeEndElement();
  }
}
