package io.millrace.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which packages the classes of some packages may depend on, checked on bytecode (fields, signatures, calls, type
 * arguments, annotations, as ArchUnit sees them). A class may always depend on its own package; a package ending
 * in {@code ..} stands for it and its subpackages. Each violation is one line naming the class, the class it must
 * not depend on, and where, so that a failing test says what to change.
 */
final class AllowedDependencies {
    private final List<String> allowed;

    private AllowedDependencies(List<String> allowed) {
        this.allowed = allowed;
    }

    /** A rule allowing {@code packages} (exact, or with a trailing {@code ..} for subpackages too). */
    static AllowedDependencies only(String... packages) {
        return new AllowedDependencies(List.of(packages));
    }

    /**
     * The dependencies of the classes in {@code checked} (same notation) that leave the allowed packages; fails when
     * {@code checked} holds no class, so that a renamed package cannot make the rule pass by checking nothing.
     */
    SortedSet<String> violations(JavaClasses classes, String... checked) {
        SortedSet<String> found = new TreeSet<>();
        int seen = 0;
        for (JavaClass origin : classes) {
            if (!matchesAny(origin.getPackageName(), List.of(checked))) {
                continue;
            }
            seen++;
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass().getBaseComponentType();
                String to = target.getPackageName();
                if (target.isPrimitive() || to.equals(origin.getPackageName()) || matchesAny(to, allowed)) {
                    continue;
                }
                found.add(origin.getName() + " -> " + target.getName() + "   (" + dependency.getDescription() + ")");
            }
        }
        if (seen == 0) {
            throw new IllegalArgumentException("no classes in " + List.of(checked) + ": the rule would check nothing");
        }
        return found;
    }

    private static boolean matchesAny(String pkg, List<String> patterns) {
        for (String p : patterns) {
            if (p.endsWith("..") ? pkg.equals(p.substring(0, p.length() - 2)) || pkg.startsWith(p.substring(0, p.length() - 1))
                    : pkg.equals(p)) {
                return true;
            }
        }
        return false;
    }
}
