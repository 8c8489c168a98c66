package io.millrace.architecture.cyclic.right;

/** Fixture for {@code PackageCyclesTest}: its only dependency is a fully qualified reference back to {@code left}. */
public class Right {
    public Object back() {
        return io.millrace.architecture.cyclic.left.Left.class;
    }
}
