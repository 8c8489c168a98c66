package io.millrace.cep;

import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The pattern engine is built on the operator SPI alone: its classes depend on {@code io.millrace.operator}, the public
 * API ({@code io.millrace.api}) and the JDK, never on the runtime's internals.
 */
class CepLayeringTest {
    private static final List<String> ALLOWED = List.of("io.millrace.cep", "io.millrace.operator", "io.millrace.api", "java");

    @Test
    void cepClasses_dependOnlyOnTheSpiTheApiAndTheJdk() {
        JavaClasses classes = new ClassFileImporter().withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .importPackages("io.millrace.cep");
        SortedSet<String> violations = violations(classes);

        int checked = 0;
        for (JavaClass c : classes) {
            if (c.getPackageName().startsWith("io.millrace.cep")) {
                checked++;
            }
        }
        assertThat(checked).as("classes checked").isGreaterThan(10);
        assertThat(violations).as("CEP classes that depend on something other than the operator SPI, the API and the JDK").isEmpty();
    }

    @Test
    void theCheckFindsADependencyOnTheRuntime() {
        JavaClasses classes = new ClassFileImporter().importClasses(ReachesIntoTheRuntime.class);

        assertThat(violations(classes)).anySatisfy(v -> assertThat(v).contains("io.millrace.runtime.state.KeyGroups"));
    }

    /** A fixture: a class of this package that uses the runtime directly. */
    static final class ReachesIntoTheRuntime {
        int group(Object key) {
            return io.millrace.runtime.state.KeyGroups.keyGroupFor(key, 128);
        }
    }

    private static SortedSet<String> violations(JavaClasses classes) {
        SortedSet<String> found = new TreeSet<>();
        for (JavaClass origin : classes) {
            if (!origin.getPackageName().startsWith("io.millrace.cep")) {
                continue;
            }
            for (Dependency d : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = d.getTargetClass().getBaseComponentType();
                String pkg = target.getPackageName();
                if (target.isPrimitive() || ALLOWED.stream().anyMatch(a -> pkg.equals(a) || pkg.startsWith(a + "."))) {
                    continue;
                }
                found.add(origin.getName() + " -> " + target.getName() + "   (" + d.getDescription() + ")");
            }
        }
        return found;
    }
}
