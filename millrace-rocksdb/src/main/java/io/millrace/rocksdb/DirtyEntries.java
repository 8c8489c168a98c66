package io.millrace.rocksdb;

/**
 * The dirty entries of a {@link StateCache}, oldest first, linked through {@link StateCache.Entry#dirtyPrevious}
 * and {@link StateCache.Entry#dirtyNext}, so that writing some back ahead of time and flushing visit only dirty
 * entries, not the whole cache. An entry is in the list exactly while its {@code dirty} flag is set; the cache
 * keeps the two in step. Task thread only.
 */
final class DirtyEntries {
    private StateCache.Entry head;
    private StateCache.Entry tail;
    private int count;

    /** The oldest dirty entry, or null when there is none. */
    StateCache.Entry oldest() {
        return head;
    }

    int count() {
        return count;
    }

    /** Appends a clean entry that just turned dirty. */
    void add(StateCache.Entry e) {
        e.dirtyPrevious = tail;
        e.dirtyNext = null;
        if (tail == null) {
            head = e;
        } else {
            tail.dirtyNext = e;
        }
        tail = e;
        count++;
    }

    /** Removes an entry of the list (it is being written back or dropped). */
    void remove(StateCache.Entry e) {
        if (e.dirtyPrevious == null) {
            head = e.dirtyNext;
        } else {
            e.dirtyPrevious.dirtyNext = e.dirtyNext;
        }
        if (e.dirtyNext == null) {
            tail = e.dirtyPrevious;
        } else {
            e.dirtyNext.dirtyPrevious = e.dirtyPrevious;
        }
        e.dirtyPrevious = null;
        e.dirtyNext = null;
        count--;
    }

    /** Moves an entry of the list to its end, as if it had just turned dirty. */
    void moveToBack(StateCache.Entry e) {
        remove(e);
        add(e);
    }

    /** Forgets every entry, leaving their links to the caller (which resets the entries). */
    void clear() {
        head = null;
        tail = null;
        count = 0;
    }
}
