package io.millrace.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Mechanical checks of the layering in DESIGN.md and STYLE.md. */
class LayeringTest {
    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.millrace");
    }

    @Test
    void publicApi_doesNotDependOnRuntimeOrConnectors() {
        noClasses().that().resideInAPackage("io.millrace.api..")
                .should().dependOnClassesThat().resideInAnyPackage("io.millrace.runtime..", "io.millrace.connector..", "io.millrace.sim..")
                .because("the API is the stable surface; runtimes are found through PlanExecutor")
                .check(core);
    }

    @Test
    void core_dependsOnNothingHeavy() {
        noClasses().that().resideInAPackage("io.millrace..")
                .should().dependOnClassesThat().resideInAnyPackage(
                        "org.apache.calcite..", "org.apache.kafka..", "org.rocksdb..", "org.apache.flink..", "picocli..",
                        "org.eclipse.paho..", "org.postgresql..")
                .because("millrace-core depends on nothing heavy (DESIGN.md, Modules)")
                .check(core);
    }

    @Test
    void engineCode_readsTimeOnlyThroughTheClock() {
        noClasses().that().resideInAnyPackage("io.millrace.runtime..", "io.millrace.connector..", "io.millrace.sim..")
                .should().callMethod(System.class, "currentTimeMillis")
                .orShould().callMethod(System.class, "nanoTime")
                .because("time is injected (STYLE.md #8): use the pipeline's Clock")
                .check(core);
    }

    @Test
    void connectors_useOnlyTheApi() {
        noClasses().that().resideInAnyPackage("io.millrace.connector..", "io.millrace.sim..")
                .should().dependOnClassesThat().resideInAPackage("io.millrace.runtime..")
                .because("built-in sources and sinks implement the public source and sink SPI")
                .check(core);
    }
}
