package io.millrace.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No cycles between the packages of millrace-core: every package is its own slice, a subpackage apart from its
 * parent. A cycle found here is fixed by moving a class to the package it belongs to, or by inverting a
 * dependency through a small interface; packages are not merged to hide one.
 */
class PackageCyclesTest {
    /**
     * The only cycles tolerated, each with the reason and the exact set of packages it spans. A cycle that grows
     * beyond its entry fails, and so does an entry whose cycle is gone: remove the entry then.
     */
    static final Map<Set<String>, String> ALLOWED_CYCLES = Map.of(
            Set.of("io.millrace.api", "io.millrace.api.functions", "io.millrace.api.plan", "io.millrace.api.source",
                    "io.millrace.api.state", "io.millrace.api.window"),
            "public API packages: breaking it moves user-facing types (OutputTag out of io.millrace.api, the"
                    + " process and window functions apart from the plain functions that state descriptors take)");

    private static JavaClasses core;

    @BeforeAll
    static void importCore() {
        core = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.millrace");
    }

    @Test
    void corePackages_formNoCycleBeyondTheAllowedOnes() {
        PackageCycles graph = PackageCycles.of(core, "io.millrace.");
        List<String> unexpected = graph.cycles().stream()
                .filter(cycle -> !ALLOWED_CYCLES.containsKey(cycle))
                .map(graph::describe)
                .toList();
        assertThat(unexpected).as("package cycles in millrace-core").isEmpty();
    }

    @Test
    void everyAllowedCycle_stillExists() {
        Set<Set<String>> found = Set.copyOf(PackageCycles.of(core, "io.millrace.").cycles());
        assertThat(ALLOWED_CYCLES.keySet())
                .as("allowed cycles that no longer occur: delete their entries from ALLOWED_CYCLES")
                .allSatisfy(allowed -> assertThat(found).contains(new TreeSet<>(allowed)));
    }

    @Test
    void twoPackagesReferringToEachOther_areReportedAsOneCycleWithTheClassesBehindEachEdge() {
        JavaClasses fixture = new ClassFileImporter().importPackages("io.millrace.architecture.cyclic");
        PackageCycles graph = PackageCycles.of(fixture, "io.millrace.architecture.cyclic.");

        List<SortedSet<String>> cycles = graph.cycles();

        assertThat(cycles).containsExactly(new TreeSet<>(Set.of(
                "io.millrace.architecture.cyclic.left", "io.millrace.architecture.cyclic.right")));
        assertThat(graph.describe(cycles.get(0)))
                .contains("io.millrace.architecture.cyclic.left -> io.millrace.architecture.cyclic.right: Left -> Right")
                .contains("io.millrace.architecture.cyclic.right -> io.millrace.architecture.cyclic.left: Right -> Left");
    }
}
