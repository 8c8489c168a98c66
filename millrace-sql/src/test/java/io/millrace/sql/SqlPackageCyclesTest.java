package io.millrace.sql;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The SQL module's layering: its subpackages (parser, types, catalog, connector, runtime, exec, planner) form no
 * cycle, the classes that run inside jobs ({@code runtime}) know nothing of Calcite, and nothing uses the core's
 * runtime internals.
 */
class SqlPackageCyclesTest {
    private static final JavaClasses CLASSES = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.millrace.sql");

    @Test
    void subpackages_haveNoCycles() {
        slices().matching("io.millrace.sql.(*)..").should().beFreeOfCycles().check(CLASSES);
    }

    @Test
    void jobCode_doesNotDependOnCalcite() {
        noClasses().that().resideInAnyPackage("io.millrace.sql.runtime..", "io.millrace.sql.connector..", "io.millrace.sql.exec..")
                .should().dependOnClassesThat().resideInAPackage("org.apache.calcite..").check(CLASSES);
    }

    @Test
    void nothing_usesTheCoreRuntimeInternals() {
        noClasses().should().dependOnClassesThat().resideInAPackage("io.millrace.runtime..").check(CLASSES);
    }
}
