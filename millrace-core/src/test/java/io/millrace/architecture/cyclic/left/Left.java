package io.millrace.architecture.cyclic.left;

/** Fixture for {@code PackageCyclesTest}: depends on {@code right}, which depends back on this package. */
public class Left {
    public io.millrace.architecture.cyclic.right.Right partner;
}
