package io.millrace.runtime.state;

import io.millrace.testing.ClassVersions;
import java.util.Map;

/**
 * Versions of a user's value type {@code evo.Reading}, each compiled once into its own class loader.
 * V1 is the original. V2 evolves it compatibly: {@code count} widened from int to long, {@code level}
 * removed, {@code unit} added; the nested {@code evo.Part} widens {@code weight} from float to double and
 * adds {@code checked}; {@code evo.Status} gains and reorders constants. V3 changes {@code count} to
 * String (incompatible); V4 drops the constant {@code FAULT}.
 */
public final class ReadingVersions {
    public static final String READING = "evo.Reading";
    public static final String PART = "evo.Part";
    public static final String STATUS = "evo.Status";

    private static final String PART_V1 = "package evo; public record Part(String id, float weight) {}";
    private static final String STATUS_V1 = "package evo; public enum Status { OK, FAULT, IDLE }";

    public static final ClassLoader V1 = ClassVersions.compile(Map.of(
            READING, "package evo; public record Reading(String machine, int count, double level, Status status,"
                    + " java.util.List<Part> parts) {}",
            PART, PART_V1,
            STATUS, STATUS_V1));

    public static final ClassLoader V2 = ClassVersions.compile(Map.of(
            READING, "package evo; public record Reading(String machine, long count, Status status,"
                    + " java.util.List<Part> parts, String unit) {}",
            PART, "package evo; public record Part(String id, double weight, boolean checked) {}",
            STATUS, "package evo; public enum Status { MAINTENANCE, IDLE, FAULT, OK }"));

    public static final ClassLoader V3 = ClassVersions.compile(Map.of(
            READING, "package evo; public record Reading(String machine, String count, double level, Status status,"
                    + " java.util.List<Part> parts) {}",
            PART, PART_V1,
            STATUS, STATUS_V1));

    public static final ClassLoader V4 = ClassVersions.compile(Map.of(
            READING, "package evo; public record Reading(String machine, int count, double level, Status status,"
                    + " java.util.List<Part> parts) {}",
            PART, PART_V1,
            STATUS, "package evo; public enum Status { OK, IDLE }"));

    private ReadingVersions() {}

    /** A V1 reading with one part. */
    public static Object readingV1(String machine, int count, double level, String status, String part, float weight) {
        Object p = ClassVersions.record(V1, PART, part, weight);
        return ClassVersions.record(V1, READING, machine, count, level, ClassVersions.constant(V1, STATUS, status),
                new java.util.ArrayList<>(java.util.List.of(p)));
    }
}
