package io.millrace.runtime.checkpoint;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * Turns a caller's state file name (e.g. {@code window-agg-3.keyed}, built from an operator uid the user
 * chose) into a file name that is safe on every file system and cannot clash with the storage's own files.
 * Letters, digits, {@code - . _} stay; every other byte of the UTF-8 form becomes {@code %XX}, as do a leading
 * {@code .} or {@code _} (so no hidden files, no {@code ..}, no clash with {@code _metadata}). The mapping is
 * one-to-one except for names longer than {@value #MAX_LENGTH} characters, which are cut and suffixed with
 * the CRC-32 of the whole name.
 */
final class StateFileName {
    static final int MAX_LENGTH = 200;
    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private StateFileName() {}

    static String of(String name) {
        if (name == null || name.isEmpty()) {
            throw new IllegalArgumentException("a state file name must not be empty");
        }
        byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
        StringBuilder safe = new StringBuilder(utf8.length + 8);
        for (int i = 0; i < utf8.length; i++) {
            int b = utf8[i] & 0xFF;
            boolean plain = (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9') || b == '-'
                    || ((b == '.' || b == '_') && i > 0);
            if (plain) {
                safe.append((char) b);
            } else {
                safe.append('%').append(HEX[b >>> 4]).append(HEX[b & 0xF]);
            }
        }
        if (safe.length() <= MAX_LENGTH) {
            return safe.toString();
        }
        CRC32 crc = new CRC32();
        crc.update(utf8);
        return safe.substring(0, MAX_LENGTH - 9) + "~" + String.format("%08x", crc.getValue());
    }

    /**
     * Accepts a file name read from metadata only if it stays inside the checkpoint directory and is not
     * one of the storage's own files; throws IllegalArgumentException otherwise.
     */
    static void check(String fileName) {
        if (fileName.isEmpty() || fileName.startsWith(".") || fileName.startsWith("_")
                || fileName.indexOf('/') >= 0 || fileName.indexOf('\\') >= 0 || fileName.indexOf(':') >= 0) {
            throw new IllegalArgumentException("'" + fileName + "' is not a state file name");
        }
    }
}
