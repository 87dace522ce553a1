package dev.versio.engine.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchRule;
import java.net.http.HttpClient;
import java.time.Clock;
import java.time.InstantSource;
import java.util.concurrent.ExecutorService;
import org.junit.jupiter.api.Test;

/**
 * The engine runs inside the webhook's hot path, the operator and the CLI alike, so it must stay a
 * pure library: no Kubernetes client, no HTTP, no logging framework, no threads, no clock.
 */
class EngineStaysPureTest {
  static final ArchRule ENGINE_IS_PURE =
      noClasses()
          .that()
          .resideInAPackage("dev.versio.engine..")
          .should()
          .dependOnClassesThat()
          .resideInAnyPackage(
              "io.fabric8..",
              "io.javaoperatorsdk..",
              "io.vertx..",
              "io.netty..",
              "java.net.http..",
              "com.sun.net.httpserver..",
              "org.slf4j..",
              "ch.qos.logback..",
              "org.apache.logging..",
              "java.util.logging..")
          .orShould()
          .dependOnClassesThat()
          .areAssignableTo(Thread.class)
          .orShould()
          .dependOnClassesThat()
          .areAssignableTo(ExecutorService.class)
          .orShould()
          .dependOnClassesThat()
          .areAssignableTo(InstantSource.class)
          .because("versio-engine is pure: JDK + Jackson + CEL, no I/O, no threads, no clock");

  @Test
  void theEngineImportsNoKubernetesHttpLoggingThreadOrClockApi() {
    JavaClasses engine =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.versio.engine");
    ENGINE_IS_PURE.check(engine);
  }

  @Test
  void theRuleRejectsEngineCodeThatReachesForTheNetworkOrTheClock() {
    JavaClasses offenders = new ClassFileImporter().importClasses(Offender.class);
    assertThatThrownBy(() -> ENGINE_IS_PURE.check(offenders))
        .hasMessageContaining("java.net.http.HttpClient")
        .hasMessageContaining("java.time.Clock");
  }

  /** Deliberately impure code inside the engine's package tree (test sources only). */
  static final class Offender {
    Object fetch() {
      return HttpClient.newHttpClient();
    }

    Object now() {
      return Clock.systemUTC();
    }
  }
}
