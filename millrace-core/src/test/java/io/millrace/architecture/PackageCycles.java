package io.millrace.architecture;

import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The package dependency graph of imported classes, and its cycles. Every package is a node of its own (a
 * subpackage is not part of its parent); an edge a → b exists when a class of a depends on a class of b in
 * any way ArchUnit sees in bytecode: a field, a signature, a call, a fully qualified reference, a type
 * argument. A cycle is reported as a strongly connected component of two or more packages, with the class
 * dependencies that make each of its edges, so a failing test says what to move.
 */
public final class PackageCycles {
    private final SortedMap<String, SortedMap<String, SortedSet<String>>> edges = new TreeMap<>();

    private PackageCycles() {}

    /** The graph of the classes whose package starts with {@code prefix} (dependencies outside it are ignored). */
    public static PackageCycles of(JavaClasses classes, String prefix) {
        PackageCycles graph = new PackageCycles();
        for (JavaClass origin : classes) {
            String from = origin.getPackageName();
            if (!from.startsWith(prefix)) {
                continue;
            }
            graph.edges.computeIfAbsent(from, k -> new TreeMap<>());
            for (Dependency dependency : origin.getDirectDependenciesFromSelf()) {
                JavaClass target = dependency.getTargetClass();
                String to = target.getPackageName();
                if (to.startsWith(prefix) && !to.equals(from)) {
                    graph.edges.get(from).computeIfAbsent(to, k -> new TreeSet<>())
                            .add(simpleName(origin) + " -> " + simpleName(target));
                }
            }
        }
        return graph;
    }

    /** The cycles: each a set of two or more packages that all reach one another, in a stable order. */
    public List<SortedSet<String>> cycles() {
        return new Tarjan().run();
    }

    /** One line per edge inside {@code cycle}, naming up to three of the class dependencies behind it. */
    public String describe(Set<String> cycle) {
        StringBuilder out = new StringBuilder("cycle among ").append(cycle).append(':');
        for (String from : cycle) {
            edges.getOrDefault(from, new TreeMap<>()).forEach((to, why) -> {
                if (cycle.contains(to)) {
                    out.append("\n    ").append(from).append(" -> ").append(to).append(": ")
                            .append(String.join(", ", why.stream().limit(3).toList()))
                            .append(why.size() > 3 ? ", ... (" + why.size() + " in all)" : "");
                }
            });
        }
        return out.toString();
    }

    private static String simpleName(JavaClass type) {
        String name = type.getName();
        return name.substring(name.lastIndexOf('.') + 1);
    }

    /** Tarjan's strongly connected components, iterative so deep graphs do not overflow the stack. */
    private final class Tarjan {
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new java.util.HashSet<>();
        private final List<SortedSet<String>> components = new ArrayList<>();
        private int next;

        List<SortedSet<String>> run() {
            for (String node : edges.keySet()) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            components.sort((a, b) -> a.first().compareTo(b.first()));
            return components;
        }

        private void visit(String root) {
            Deque<Map.Entry<String, java.util.Iterator<String>>> work = new ArrayDeque<>();
            enter(root, work);
            while (!work.isEmpty()) {
                Map.Entry<String, java.util.Iterator<String>> top = work.peek();
                String node = top.getKey();
                if (top.getValue().hasNext()) {
                    String next = top.getValue().next();
                    if (!index.containsKey(next)) {
                        enter(next, work);
                    } else if (onStack.contains(next)) {
                        low.put(node, Math.min(low.get(node), index.get(next)));
                    }
                    continue;
                }
                work.pop();
                if (!work.isEmpty()) {
                    String parent = work.peek().getKey();
                    low.put(parent, Math.min(low.get(parent), low.get(node)));
                }
                if (low.get(node).equals(index.get(node))) {
                    SortedSet<String> component = new TreeSet<>();
                    String member;
                    do {
                        member = stack.pop();
                        onStack.remove(member);
                        component.add(member);
                    } while (!member.equals(node));
                    if (component.size() > 1) {
                        components.add(component);
                    }
                }
            }
        }

        private void enter(String node, Deque<Map.Entry<String, java.util.Iterator<String>>> work) {
            index.put(node, next);
            low.put(node, next);
            next++;
            stack.push(node);
            onStack.add(node);
            work.push(Map.entry(node, edges.getOrDefault(node, new TreeMap<>()).keySet().iterator()));
        }
    }
}
