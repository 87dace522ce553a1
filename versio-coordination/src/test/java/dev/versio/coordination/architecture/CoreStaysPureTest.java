package dev.versio.coordination.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The sharding and ownership logic is tested with a hand-moved clock, so it must not reach for the
 * Kubernetes client, the network, threads or the system clock; only the kubernetes package does.
 */
class CoreStaysPureTest {

  @Test
  void shardAndCorePackagesUseNoKubernetesClientNetworkThreadsOrSystemClock() {
    var classes =
        new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.versio.coordination.shard", "dev.versio.coordination.core");
    noClasses()
        .should()
        .dependOnClassesThat()
        .resideInAnyPackage("io.fabric8..", "java.net.http..", "org.slf4j..", "io.micrometer..")
        .orShould()
        .dependOnClassesThat()
        .areAssignableTo(Thread.class)
        .orShould()
        .callMethod(System.class, "currentTimeMillis")
        .orShould()
        .callMethod(System.class, "nanoTime")
        .orShould()
        .callMethod(java.time.Instant.class, "now")
        .because("the core takes time from an injected InstantSource")
        .check(classes);
  }
}
