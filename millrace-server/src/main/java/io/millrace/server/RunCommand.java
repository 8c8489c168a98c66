package io.millrace.server;

import io.millrace.api.ConfigException;
import io.millrace.api.ConfigOptions;
import io.millrace.api.ConfigValues;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code millrace run}: runs a user's job jar in this JVM. The configuration (file, {@code -D}, flags) becomes
 * {@code millrace.*} system properties, which every {@code new PipelineConfig()} in the job applies; then the
 * job's {@code main} runs on this thread, with the job's class loader as context class loader. The command
 * returns when {@code main} returns. Every option is checked before {@code main} runs, by its key: its value, and
 * that {@code state.backend} names a backend on the class path that accepts its options ({@link StateBackendCheck}).
 * The jobs log their state backend when they start and what each source read when they end.
 */
@Command(
        name = "run",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Runs a job packaged as a jar: loads MAIN from JOB.jar and calls its main(ARGS).",
            "Every Pipeline the job creates starts from this configuration, lowest first: the",
            "config file, millrace.* system properties, -D, the flags below. Setters called in",
            "the job's code win over all of them. Every option: docs/configuration.md.",
            "Exit codes: 0 main returned; 1 the job failed; 2 bad command line, configuration,",
            "jar or class."
        })
final class RunCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--jar", required = true, paramLabel = "JOB.jar", description = "The job's jar.")
    Path jar;

    @Option(names = "--class", paramLabel = "MAIN", description = "The class whose main(String[]) to run. Default: the jar's Main-Class.")
    String mainClass;

    @Mixin
    JobOptions settings;

    @Option(names = "--class-loading", paramLabel = "ORDER", defaultValue = "CHILD_FIRST",
            converter = OrderConverter.class,
            description = "child-first (the jar's classes win over the server's, except io.millrace.*, java.*, slf4j) or parent-first. Default: child-first.")
    JobClassLoader.Order classLoading;

    @Parameters(paramLabel = "ARGS", description = "Arguments for the job's main; put them after --.")
    List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        ConfigValues values;
        try {
            values = settings.configuration();
            ConfigOptions.validate(values);
        } catch (ConfigException e) {
            err.println("millrace run: " + e.getMessage());
            return 2;
        } catch (IOException e) {
            err.println("millrace run: cannot read config file " + settings.configFile + ": " + e);
            return 2;
        }
        try (JobJar job = JobJar.open(jar, RunCommand.class.getClassLoader(), classLoading)) {
            String className = job.mainClassName(mainClass);
            Method main = job.mainMethod(className);
            StateBackendCheck.check(values, job.loader());
            publish(values);
            return invoke(job, className, main, err);
        } catch (JobJar.LaunchException | ConfigException e) {
            err.println("millrace run: " + e.getMessage());
            return 2;
        }
    }

    /** Makes the merged configuration exactly the millrace.* system properties of this JVM. */
    private static void publish(ConfigValues values) {
        for (String name : System.getProperties().stringPropertyNames()) {
            if (name.startsWith(ConfigValues.SYSTEM_PROPERTY_PREFIX)) {
                System.clearProperty(name);
            }
        }
        values.toSystemProperties().forEach(System::setProperty);
    }

    private int invoke(JobJar job, String className, Method main, PrintWriter err) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(job.loader());
        try {
            main.invoke(null, (Object) args.toArray(String[]::new));
            return 0;
        } catch (InvocationTargetException | ExceptionInInitializerError e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            err.println("millrace run: job " + className + " failed: " + cause);
            cause.printStackTrace(err);
            return 1;
        } catch (IllegalAccessException e) {
            err.println("millrace run: main of " + className + " is not accessible: " + e.getMessage());
            return 2;
        } finally {
            thread.setContextClassLoader(previous);
            err.flush();
        }
    }

    static final class OrderConverter implements picocli.CommandLine.ITypeConverter<JobClassLoader.Order> {
        @Override
        public JobClassLoader.Order convert(String value) {
            return switch (value.toLowerCase(java.util.Locale.ROOT).replace('_', '-')) {
                case "child-first" -> JobClassLoader.Order.CHILD_FIRST;
                case "parent-first" -> JobClassLoader.Order.PARENT_FIRST;
                default -> throw new picocli.CommandLine.TypeConversionException(
                        "'" + value + "' is not a class-loading order; accepted: child-first, parent-first");
            };
        }
    }
}
