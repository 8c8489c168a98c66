package io.millrace.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.SortedSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The operator SPI ({@code io.millrace.operator}) stands apart from the runtime: it is written in terms of the public
 * API and the JDK only, so that SQL, CEP and UDF operators built on it never see the runtime's internals. The join
 * operators and the operators that run process functions prove it: they use the SPI, the API and the JDK and nothing
 * else.
 */
class OperatorSpiTest {
    private static final AllowedDependencies SPI_API_JDK = AllowedDependencies.only("io.millrace.operator..", "io.millrace.api..", "java..");

    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.millrace");
    }

    @Test
    void operatorSpi_dependsOnlyOnTheApiAndTheJdk() {
        SortedSet<String> violations = AllowedDependencies.only("io.millrace.api..", "java..").violations(core, "io.millrace.operator..");

        assertThat(violations).as("classes of the operator SPI that depend on something other than io.millrace.api and java"
                + " (move the type into the SPI, or keep the internal part in the runtime's InternalOperatorContext)").isEmpty();
    }

    @Test
    void joinOperators_dependOnlyOnTheSpiTheApiAndTheJdk() {
        SortedSet<String> violations = SPI_API_JDK.violations(core, "io.millrace.runtime.join", "io.millrace.api.table");

        assertThat(violations).as("join operators that depend on something other than io.millrace.operator, io.millrace.api and java")
                .isEmpty();
    }

    @Test
    void processFunctionOperators_dependOnlyOnTheSpiTheApiAndTheJdk() {
        SortedSet<String> violations = SPI_API_JDK.violations(core, "io.millrace.runtime.process");

        assertThat(violations).as("the operators of process functions (keyed and two-input, behind the temporal and changelog joins)"
                + " that depend on something other than io.millrace.operator, io.millrace.api and java").isEmpty();
    }

    @Test
    void publicApi_doesNotDependOnTheSpi() {
        SortedSet<String> violations = AllowedDependencies.only("io.millrace.api..", "java..").violations(core, "io.millrace.api..");

        assertThat(violations).as("API classes that depend on the operator SPI or anything else outside io.millrace.api and java")
                .isEmpty();
    }

    @Test
    void theCheckFindsAClassThatReachesIntoTheRuntime_andNamesTheClassAndTheDependency() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.millrace.architecture.leaky");

        SortedSet<String> violations = SPI_API_JDK.violations(fixture, "io.millrace.architecture.leaky");

        assertThat(violations).isNotEmpty().allSatisfy(v -> assertThat(v)
                .startsWith("io.millrace.architecture.leaky.LeakyOperator -> io.millrace.runtime.state.KeyedStateBackend"));
        assertThat(violations).anySatisfy(v -> assertThat(v).contains("currentKey"));
    }
}
