package io.millrace.bench.millrace;

import com.hivemq.client.mqtt.MqttClient;
import com.hivemq.client.mqtt.MqttGlobalPublishFilter;
import com.hivemq.client.mqtt.datatypes.MqttQos;
import com.hivemq.client.mqtt.mqtt5.Mqtt5AsyncClient;
import com.hivemq.client.mqtt.mqtt5.Mqtt5BlockingClient;
import io.millrace.api.JobHandle;
import io.millrace.api.JobResult;
import io.millrace.api.Pipeline;
import io.millrace.api.PipelineConfig;
import io.millrace.api.sink.Sink;
import io.millrace.api.sink.SinkWriter;
import io.millrace.api.time.WatermarkStrategy;
import io.millrace.api.window.Windows;
import io.millrace.connector.mqtt.MqttMessageDeserializer;
import io.millrace.connector.mqtt.MqttServer;
import io.millrace.connector.mqtt.MqttSource;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code ./millrace-bench --suite mqtt}: MQTT ingest into a keyed window from a local Mosquitto, against the broker's
 * own ceiling. Per round and QoS (0 and 1): a persistent session is made and subscribed, {@code --records} readings
 * ({@code key,value,eventTime} text, {@code --keys} keys, one topic per key) are published to it while it is read
 * (see {@link #feed}), either by a Millrace job (an {@code MqttSource} at that QoS, acknowledged after checkpoints
 * every {@code --checkpoint-interval-ms}; the readings keyed and counted in 1 s tumbling event-time windows; timed
 * until every reading is counted in a fired window) or by a plain HiveMQ client alone (the ceiling: it only counts
 * the messages, acknowledging QoS 1 on receipt). At QoS 0 the broker sends with no flow control, so the source may
 * buffer a whole run ({@code maxBufferedMessages}); at QoS 1 the broker's window of unacknowledged messages is
 * {@code max_inflight_messages 30000}. Prints a {@code ROUND} line per run, then per engine and QoS a
 * {@code RESULT} line (the median round) and per QoS a {@code RATIO} line, Millrace over the broker's ceiling.
 */
public final class MqttIngest {
    static final long WINDOW_MS = 1_000;
    /** Readings per second of event time. */
    static final long EVENT_RATE = 100_000;
    static final String END_KEY = "end";

    long records = 1_000_000;
    int keys = 1_000;
    int rounds = 1;
    int parallelism = 2;
    long checkpointMillis = 1_000;
    List<Integer> qosLevels = List.of(0, 1);
    String binary;
    Path work;
    int port;
    Process broker;
    int run;

    public static void main(String[] args) throws Exception {
        List<String> lines = run(args);
        System.exit(lines.stream().filter(l -> l.startsWith("ROUND")).allMatch(l -> l.contains("correct=yes")) ? 0 : 1);
    }

    /** Runs the suite with these options; prints and returns its ROUND, RESULT and RATIO lines. */
    static List<String> run(String... args) throws Exception {
        MqttIngest suite = new MqttIngest();
        suite.parse(args);
        return suite.runAll();
    }

    private void parse(String[] args) {
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("option " + args[i] + " needs a value");
            }
            String v = args[i + 1];
            switch (args[i]) {
                case "--records" -> records = io.millrace.bench.workload.BenchOptions.parseCount(v);
                case "--keys" -> keys = Integer.parseInt(v);
                case "--rounds" -> rounds = Integer.parseInt(v);
                case "--parallelism" -> parallelism = Integer.parseInt(v);
                case "--checkpoint-interval-ms" -> checkpointMillis = Long.parseLong(v);
                case "--qos" -> qosLevels = v.equals("all") ? List.of(0, 1) : List.of(Integer.parseInt(v));
                case "--mosquitto" -> binary = v;
                default -> throw new IllegalArgumentException("unknown option " + args[i] + " (known: --records --keys --rounds --qos 0|1|all"
                        + " --parallelism --checkpoint-interval-ms --mosquitto)");
            }
        }
        for (int q : qosLevels) {
            if (q != 0 && q != 1) {
                throw new IllegalArgumentException("--qos must be 0, 1 or all, was " + q);
            }
        }
        if (records < 1000 || keys < 1 || rounds < 1 || parallelism < 1 || checkpointMillis < 1) {
            throw new IllegalArgumentException("--records must be at least 1000; --keys, --rounds, --parallelism and --checkpoint-interval-ms at least 1");
        }
    }

    private List<String> runAll() throws Exception {
        work = Files.createTempDirectory("millrace-mqtt-suite");
        startBroker();
        List<String> lines = new ArrayList<>();
        try {
            log("machine: " + Runtime.getRuntime().availableProcessors() + " cores, Java " + System.getProperty("java.version") + ", load average "
                    + load() + "; Mosquitto on 127.0.0.1:" + port + ", " + records + " readings per run, " + keys + " keys");
            for (int round = 1; round <= rounds; round++) {
                for (int qos : qosLevels) {
                    List<String> order = round % 2 == 1 ? List.of("broker", "millrace") : List.of("millrace", "broker");
                    for (String engine : order) {
                        String line = engine.equals("broker") ? ceiling(qos, round) : millrace(qos, round);
                        System.out.println(line);
                        System.out.flush();
                        lines.add(line);
                    }
                }
            }
            lines.addAll(report(lines));
        } finally {
            broker.destroy();
            broker.waitFor(10, TimeUnit.SECONDS);
            try (var files = Files.walk(work)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
        return lines;
    }

    /** Mosquitto with no in-flight limit (the client's receive maximum is the window) and room for a whole run's queue. */
    private void startBroker() throws Exception {
        Path bin = binary != null ? Path.of(binary) : Files.isExecutable(Path.of("/usr/sbin/mosquitto")) ? Path.of("/usr/sbin/mosquitto") : Path.of("mosquitto");
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            port = s.getLocalPort();
        }
        StringBuilder conf = new StringBuilder("listener " + port + " 127.0.0.1\nallow_anonymous true\npersistence false\n"
                + "max_inflight_messages 30000\nmax_queued_messages 0\nmax_queued_bytes 0\nqueue_qos0_messages true\n"
                + "log_dest stderr\nlog_type error\nlog_type warning\nlog_type notice\nlog_type information\n");
        if ("root".equals(System.getProperty("user.name"))) {
            conf.append("user root\n");
        }
        Files.writeString(work.resolve("mosquitto.conf"), conf);
        try {
            broker = new ProcessBuilder(bin.toString(), "-c", work.resolve("mosquitto.conf").toString()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + bin + ": install Debian's package 'mosquitto' (apt-get install mosquitto), or give --mosquitto PATH", e);
        }
        CompletableFuture<Void> running = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(broker.getInputStream(), StandardCharsets.UTF_8));
                 var out = Files.newBufferedWriter(work.resolve("mosquitto.log"))) {
                String line;
                while ((line = in.readLine()) != null) {
                    out.write(line + "\n");
                    out.flush();
                    if (line.contains(" running")) {
                        running.complete(null);
                    }
                }
            } catch (IOException e) {
                running.completeExceptionally(e);
            }
            running.completeExceptionally(new IOException("Mosquitto exited"));
        }, "mosquitto-log");
        t.setDaemon(true);
        t.start();
        running.get(20, TimeUnit.SECONDS);
    }

    private Mqtt5BlockingClient client(String id) {
        return MqttClient.builder().useMqttVersion5().identifier(id).serverHost("127.0.0.1").serverPort(port).buildBlocking();
    }

    /** A persistent session for the run's client, subscribed at {@code qos} to the run's topics; returns the run's prefix. */
    private String prepare(int qos, String what) {
        String prefix = "bench-" + what + "-" + (++run);
        Mqtt5BlockingClient session = client(prefix + "-0");
        session.connectWith().cleanStart(false).sessionExpiryInterval(3_600).send();
        session.subscribeWith().topicFilter(prefix + "/#").qos(MqttQos.fromCode(qos)).send();
        session.disconnect();
        return prefix;
    }

    /** Publishes the run's readings and then the end marker at {@code qos}, at most 10,000 unacknowledged or unsent. */
    private void publish(String prefix, int qos) throws Exception {
        Mqtt5AsyncClient pub = client(prefix + "-publisher").toAsync();
        pub.connectWith().cleanStart(true).send().get(10, TimeUnit.SECONDS);
        long t0 = System.nanoTime();
        java.util.concurrent.Semaphore window = new java.util.concurrent.Semaphore(10_000);
        for (long i = 0; i <= records; i++) {
            boolean end = i == records;
            String key = end ? END_KEY : "k" + (i % keys);
            long time = end ? time(records) + 3 * WINDOW_MS : time(i);
            byte[] payload = (key + "," + (i % 97) + "," + time).getBytes(StandardCharsets.UTF_8);
            window.acquire();
            pub.publishWith().topic(prefix + "/" + key).qos(MqttQos.fromCode(qos)).payload(payload).send()
                    .whenComplete((r, e) -> window.release());
        }
        window.acquire(10_000);
        pub.disconnect().get(10, TimeUnit.SECONDS);
        double s = (System.nanoTime() - t0) / 1e9;
        log(String.format(Locale.ROOT, "run %d: %,d readings published at QoS %d to %s/# in %.1f s (%,.0f/s)", run, records, qos, prefix, s, records / s));
    }

    /**
     * Publishes the readings while the consumer reads them, so a run measures publisher, broker and consumer together.
     * Not queued beforehand: at QoS 0 there is no flow control, and a queue sent at once overruns any client's buffers;
     * at QoS 1 Mosquitto 2.0.11, resuming a session with more than 65,535 queued messages, sent packet ids still in
     * flight again, which the client refuses as a protocol error. Returns the publisher's future.
     */
    private CompletableFuture<Void> feed(String prefix, int qos) throws Exception {
        return CompletableFuture.runAsync(() -> {
            try {
                publish(prefix, qos);
            } catch (Exception e) {
                throw new java.util.concurrent.CompletionException(e);
            }
        });
    }

    static long time(long i) {
        return 1_767_225_600_000L + i * 1000 / EVENT_RATE;
    }

    /** The ceiling: a plain client resumes the session and counts its messages, acknowledging QoS 1 on receipt. */
    private String ceiling(int qos, int round) throws Exception {
        String prefix = prepare(qos, "broker");
        Mqtt5AsyncClient c = client(prefix + "-0").toAsync();
        AtomicLong received = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        long total = records + 1;
        c.publishes(MqttGlobalPublishFilter.ALL, p -> {
            if (received.incrementAndGet() == total) {
                all.countDown();
            }
        });
        long t0 = System.nanoTime();
        c.connectWith().cleanStart(false).sessionExpiryInterval(3_600).send().get(10, TimeUnit.SECONDS);
        CompletableFuture<Void> publisher = feed(prefix, qos);
        boolean done = awaitAll(() -> received.get() >= total, received::get, publisher, all);
        double s = (System.nanoTime() - t0) / 1e9;
        c.disconnect().get(10, TimeUnit.SECONDS);
        return line("broker", qos, round, received.get() - 1, s, done && received.get() == total);
    }

    /** Millrace: the session drained by an MQTT source into keyed 1 s windows, timed until every reading is counted. */
    private String millrace(int qos, int round) throws Exception {
        String prefix = prepare(qos, "millrace");
        Path checkpoints = work.resolve("checkpoints-" + run);
        PipelineConfig config = new PipelineConfig().parallelism(parallelism);
        config.checkpoints().directory(checkpoints).interval(Duration.ofMillis(checkpointMillis));
        Pipeline p = Pipeline.create(config);
        MqttSource<String> source = MqttSource.builder(MqttMessageDeserializer.values(io.millrace.format.BytesDecoder.utf8()))
                .server(MqttServer.of("127.0.0.1", port))
                .topicFilters(prefix + "/#")
                .qos(qos)
                .clientIdPrefix(prefix)
                // QoS 0 arrives with no flow control: room for a whole run, so that a burst is buffered, not dropped
                .maxBufferedMessages(qos == 0 ? (int) Math.min(Integer.MAX_VALUE, records + 1) : 10_000)
                .build();
        WindowTotal.COUNTED.set(0);
        p.fromSource(source, WatermarkStrategy.<String>boundedOutOfOrderness(Duration.ZERO)
                        .withTimestampAssigner((line, arrival) -> Long.parseLong(line.substring(line.lastIndexOf(',') + 1))), "mqtt")
                .map(MqttIngest::reading).name("parse")
                .keyBy(r -> r[0])
                .window(Windows.tumbling(Duration.ofMillis(WINDOW_MS)))
                .aggregate(new CountReadings())
                .name("count-per-key")
                .sinkTo(new WindowTotal()).name("totals");
        long t0 = System.nanoTime();
        JobHandle job = p.executeAsync("mqtt-ingest-qos" + qos);
        long total = records;
        CompletableFuture<Void> publisher = feed(prefix, qos);
        awaitAll(() -> WindowTotal.COUNTED.get() >= total || job.isDone(), () -> job.metrics().sum("mqtt", om -> om.recordsOut()), publisher,
                WindowTotal.COUNTED);
        double s = (System.nanoTime() - t0) / 1e9;
        job.cancel();
        JobResult r = job.await(Duration.ofSeconds(30));
        long checkpointsDone = r == null ? -1 : r.metrics().checkpoints().stream().filter(c -> c.completed()).count();
        log("run " + run + ": millrace at QoS " + qos + ", " + checkpointsDone + " checkpoints completed");
        return line("millrace", qos, round, WindowTotal.COUNTED.get(), s, WindowTotal.COUNTED.get() == total);
    }

    /**
     * Waits, woken through {@code monitor} (a latch is polled each second instead), until {@code done}; gives up when
     * the publisher has finished and {@code progress} has not moved for 5 s (QoS 0 messages lost), or after 10 min.
     */
    private static boolean awaitAll(java.util.function.BooleanSupplier done, java.util.function.LongSupplier progress,
            CompletableFuture<Void> publisher, Object monitor) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(10);
        long last = -1;
        long stillSince = System.nanoTime();
        while (!done.getAsBoolean() && System.nanoTime() < deadline) {
            if (monitor instanceof CountDownLatch latch) {
                latch.await(1, TimeUnit.SECONDS);
            } else {
                synchronized (monitor) {
                    if (!done.getAsBoolean()) {
                        monitor.wait(1_000);
                    }
                }
            }
            long now = progress.getAsLong();
            if (now != last) {
                last = now;
                stillSince = System.nanoTime();
            } else if (publisher.isDone() && System.nanoTime() - stillSince > TimeUnit.SECONDS.toNanos(5)) {
                log("no progress for 5 s after the publisher ended, at " + now + " messages: giving up");
                break;
            }
        }
        publisher.join();
        return done.getAsBoolean();
    }

    static String[] reading(String line) {
        int a = line.indexOf(',');
        return new String[] {line.substring(0, a), line.substring(a + 1, line.lastIndexOf(','))};
    }

    /** Counts the readings of a key and window, the end marker left out. */
    static final class CountReadings implements io.millrace.api.functions.AggregateFunction<String[], long[], Long> {
        @Override
        public long[] createAccumulator() {
            return new long[1];
        }

        @Override
        public long[] add(String[] r, long[] acc) {
            if (!r[0].equals(END_KEY)) {
                acc[0]++;
            }
            return acc;
        }

        @Override
        public Long getResult(long[] acc) {
            return acc[0];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0]};
        }
    }

    /** Adds up the counts of fired windows, in this JVM, and wakes the suite's thread. */
    static final class WindowTotal implements Sink<Long> {
        private static final long serialVersionUID = 1L;
        static final AtomicLong COUNTED = new AtomicLong();

        @Override
        public SinkWriter<Long> createWriter(io.millrace.api.sink.SinkContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Long count, long timestamp) {
                    COUNTED.addAndGet(count);
                }

                @Override
                public void onWatermark(long watermark) {
                    synchronized (COUNTED) {
                        COUNTED.notifyAll();
                    }
                }

                @Override
                public void flush(boolean endOfInput) {
                    synchronized (COUNTED) {
                        COUNTED.notifyAll();
                    }
                }

                @Override
                public void close() {}
            };
        }
    }

    private String line(String engine, int qos, int round, long counted, double seconds, boolean correct) {
        return String.format(Locale.ROOT, "ROUND suite=mqtt engine=%s qos=%d round=%d records=%d seconds=%.2f eps=%.0f correct=%s",
                engine, qos, round, counted, seconds, counted / seconds, correct ? "yes" : "no");
    }

    /** Per engine and QoS the median round by eps (of an even count the slower middle one), then Millrace over the ceiling. */
    private static List<String> report(List<String> lines) {
        List<String> out = new ArrayList<>();
        Map<String, List<Map<String, String>>> byRun = new LinkedHashMap<>();
        for (String l : lines) {
            Map<String, String> f = new LinkedHashMap<>();
            for (String kv : l.split(" ")) {
                int eq = kv.indexOf('=');
                if (eq > 0) {
                    f.put(kv.substring(0, eq), kv.substring(eq + 1));
                }
            }
            byRun.computeIfAbsent(f.get("engine") + " " + f.get("qos"), k -> new ArrayList<>()).add(f);
        }
        Map<String, Map<String, Double>> eps = new LinkedHashMap<>();
        for (List<Map<String, String>> runs : byRun.values()) {
            runs.sort(Comparator.comparingDouble(f -> Double.parseDouble(f.get("eps"))));
            Map<String, String> median = runs.get((runs.size() - 1) / 2);
            StringBuilder b = new StringBuilder("RESULT suite=mqtt");
            median.forEach((k, v) -> {
                if (!k.equals("round") && !k.equals("suite")) {
                    b.append(' ').append(k).append('=').append(v);
                }
            });
            if (runs.size() > 1) {
                b.append(" eps_spread=").append(runs.get(0).get("eps")).append("..").append(runs.get(runs.size() - 1).get("eps")).append(" rounds=")
                        .append(runs.size());
            }
            out.add(b.toString());
            eps.computeIfAbsent(median.get("qos"), k -> new LinkedHashMap<>()).put(median.get("engine"), Double.parseDouble(median.get("eps")));
        }
        for (Map.Entry<String, Map<String, Double>> e : eps.entrySet()) {
            Double m = e.getValue().get("millrace");
            Double c = e.getValue().get("broker");
            if (m != null && c != null && c > 0) {
                double goal = e.getKey().equals("0") ? 0.8 : 0.5;
                out.add(String.format(Locale.ROOT, "RATIO suite=mqtt qos=%s millrace_over_broker=%.2f goal=%.2f", e.getKey(), m / c, goal));
            }
        }
        out.forEach(System.out::println);
        return out;
    }

    private static String load() {
        try {
            String[] f = Files.readString(Path.of("/proc/loadavg")).split(" ");
            return f[0] + " " + f[1] + " " + f[2];
        } catch (IOException e) {
            return "?";
        }
    }

    private static void log(String s) {
        System.err.println("mqtt-suite: " + s);
        System.err.flush();
    }
}
