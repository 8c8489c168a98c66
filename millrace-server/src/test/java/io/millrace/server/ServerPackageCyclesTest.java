package io.millrace.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import io.millrace.architecture.PackageCycles;
import org.junit.jupiter.api.Test;

/** No cycles between the packages of millrace-server (each package its own slice), with no exception. */
class ServerPackageCyclesTest {
    @Test
    void serverPackages_formNoCycle() {
        JavaClasses server = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.millrace.server");
        PackageCycles graph = PackageCycles.of(server, "io.millrace.server");

        assertThat(graph.cycles().stream().map(graph::describe).toList()).as("package cycles in millrace-server").isEmpty();
    }
}
