package org.gridstat.gateway.aggregate;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.time.SystemNanoClock;

/**
 * The split-and-aggregate benchmark: a meter server in this process, {@link MeterLoad} in a child
 * process (so the figures are the gateway's alone), N meters on loopback for a bounded time.
 * Reports connections, readings accepted per second, aggregates per region, the gateway's heap
 * after GC with and without the connections, and its CPU time. Measured, never asserted.
 *
 * <pre>main(connections, regions, seconds, ratePerSecond, serverIoThreads, loadThreads)</pre>
 */
final class MeterBench {
    private MeterBench() {
    }

    /** Counts what would be published, and the meters the aggregates say reported. */
    static final class CountingSink implements AggregateSink {
        final AtomicLongArray perRegion = new AtomicLongArray(65_536);
        final AtomicLong emitted = new AtomicLong();
        final AtomicLong reporting = new AtomicLong();
        final AtomicLong missing = new AtomicLong();
        final AtomicLong bytes = new AtomicLong();
        private final AggregatePayload view = new AggregatePayload();

        @Override
        public void emit(int regionId, long intervalStartNanos, byte[] payload, int offset, int length) {
            if (!view.wrap(payload, offset, length)) {
                throw new IllegalStateException("a malformed aggregate for region " + regionId);
            }
            perRegion.incrementAndGet(regionId);
            emitted.incrementAndGet();
            reporting.addAndGet(view.reporting());
            missing.addAndGet(view.missing());
            bytes.addAndGet(length);
        }
    }

    public static void main(String[] args) throws Exception {
        int n = Integer.parseInt(args[0]);
        int regions = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        double rate = Double.parseDouble(args[3]);
        int ioThreads = Integer.parseInt(args[4]);
        int loadThreads = Integer.parseInt(args[5]);
        if (seconds < 15) {
            throw new IllegalArgumentException("run at least 15 s: the measured window leaves out the first and last seconds");
        }
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();

        CountingSink sink = new CountingSink();
        MeterServerSettings settings = MeterServerSettings.at(new InetSocketAddress("127.0.0.1", 0)).withIoThreads(ioThreads);
        MeterServer server = MeterServer.start(settings, sink, SystemClock.INSTANCE, SystemNanoClock.INSTANCE);
        long heapBefore = heapAfterGc(memory);

        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process load = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                MeterLoad.class.getName(), "127.0.0.1", String.valueOf(server.address().getPort()), String.valueOf(n),
                String.valueOf(regions), String.valueOf(seconds), String.valueOf(rate), String.valueOf(loadThreads))
                .redirectErrorStream(true).start();
        AtomicLong sent = new AtomicLong(-1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(load.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    System.out.println("  [load] " + line);
                    int at = line.indexOf("sent=");
                    if (at >= 0) {
                        sent.set(Long.parseLong(line.substring(at + 5, line.indexOf(' ', at))));
                    }
                }
            } catch (Exception e) {
                System.out.println("  [load] " + e);
            }
        });
        reader.start();

        long t0 = System.nanoTime();
        while (server.connections() < n && System.nanoTime() - t0 < 120_000_000_000L && load.isAlive()) {
            Thread.sleep(10);
        }
        double connectSeconds = (System.nanoTime() - t0) / 1e9;
        int connected = server.connections();
        long connectedAt = System.nanoTime();

        // the measured window: from 3 s after the last connection to 4 s before the load ends
        Thread.sleep(3_000);
        MeterCounters c = server.counters();
        long acc0 = c.get(MeterCounter.READINGS_ACCEPTED);
        long rec0 = records(c);
        long cpu0 = os.getProcessCpuTime();
        long io0 = ioThreadCpu(threads);
        long w0 = System.nanoTime();
        Thread.sleep(Math.max(1_000, (seconds - 7) * 1_000L));
        long w1 = System.nanoTime();
        long acc1 = c.get(MeterCounter.READINGS_ACCEPTED);
        long rec1 = records(c);
        long cpu1 = os.getProcessCpuTime();
        long io1 = ioThreadCpu(threads);
        int openDuring = server.connections();
        long heapWith = heapAfterGc(memory);

        load.waitFor();
        reader.join();
        long t1 = System.nanoTime();
        while (server.connections() > 0 && System.nanoTime() - t1 < 30_000_000_000L) {
            Thread.sleep(10);
        }
        // let the last interval pass its grace and close
        long due = settings.aggregator().interval().toMillis() + settings.aggregator().grace().toMillis() + 300;
        Thread.sleep(due);
        server.close();

        double window = (w1 - w0) / 1e9;
        long accepted = c.get(MeterCounter.READINGS_ACCEPTED);
        long drops = c.get(MeterCounter.READINGS_LATE) + c.get(MeterCounter.READINGS_AHEAD)
                + c.get(MeterCounter.READINGS_REPEATED) + c.get(MeterCounter.READINGS_FORGOTTEN)
                + c.get(MeterCounter.READINGS_BEFORE_HELLO) + c.get(MeterCounter.RECORDS_REJECTED);
        long minPerRegion = Long.MAX_VALUE;
        long maxPerRegion = 0;
        for (int r = 0; r < regions; r++) {
            minPerRegion = Math.min(minPerRegion, sink.perRegion.get(r));
            maxPerRegion = Math.max(maxPerRegion, sink.perRegion.get(r));
        }
        System.out.printf("meterbench: %d meters, %d regions, %d s at %.1f readings/s each, server io threads %d, load threads %d, %d cores%n",
                n, regions, seconds, rate, ioThreads, loadThreads, Runtime.getRuntime().availableProcessors());
        System.out.printf("meterbench: connections established %d of %d in %.1f s (open during the window: %d), refused %d%n",
                connected, n, connectSeconds, openDuring, c.get(MeterCounter.CONNECTIONS_REFUSED));
        System.out.printf("meterbench: readings sent %d, accepted %d, counted drops %d (late %d, repeated %d, ahead %d, rejected %d), unaccounted %d%n",
                sent.get(), accepted, drops, c.get(MeterCounter.READINGS_LATE), c.get(MeterCounter.READINGS_REPEATED),
                c.get(MeterCounter.READINGS_AHEAD), c.get(MeterCounter.RECORDS_REJECTED), sent.get() - accepted - drops);
        System.out.printf("meterbench: per second in the window: %.0f readings accepted, %.0f records decoded (window %.1f s)%n",
                (acc1 - acc0) / window, (rec1 - rec0) / window, window);
        System.out.printf("meterbench: aggregates emitted %d (%d to %d per region), meters reporting in them %d (= accepted: %s), missing %d, payload bytes %d%n",
                sink.emitted.get(), minPerRegion, maxPerRegion, sink.reporting.get(), sink.reporting.get() == accepted,
                sink.missing.get(), sink.bytes.get());
        System.out.printf("meterbench: heap after GC: %.1f MiB before the meters, %.1f MiB with %d connected: %.0f bytes per connection%n",
                heapBefore / 1048576.0, heapWith / 1048576.0, openDuring, (heapWith - heapBefore) / (double) Math.max(1, openDuring));
        System.out.printf("meterbench: CPU in the window: process %.1f%% of one core, meter-server I/O threads %.1f%%; %.1f us of I/O-thread CPU per record%n",
                100.0 * (cpu1 - cpu0) / (w1 - w0), 100.0 * (io1 - io0) / (w1 - w0),
                (io1 - io0) / 1e3 / Math.max(1, rec1 - rec0));
        System.out.printf("meterbench: pauses %d, closed idle %d, closed garbage %d, hello timeouts %d, bytes unread at close %d%n",
                c.get(MeterCounter.PAUSES), c.get(MeterCounter.CLOSED_IDLE), c.get(MeterCounter.CLOSED_GARBAGE),
                c.get(MeterCounter.CLOSED_HELLO_TIMEOUT), c.get(MeterCounter.BYTES_UNREAD_AT_CLOSE));
    }

    /** Records the decoder delivered: readings, whatever became of them, and rejects. */
    private static long records(MeterCounters c) {
        return c.get(MeterCounter.READINGS_ACCEPTED) + c.get(MeterCounter.READINGS_LATE) + c.get(MeterCounter.READINGS_AHEAD)
                + c.get(MeterCounter.READINGS_REPEATED) + c.get(MeterCounter.READINGS_FORGOTTEN)
                + c.get(MeterCounter.READINGS_BEFORE_HELLO) + c.get(MeterCounter.RECORDS_REJECTED);
    }

    private static long heapAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static long ioThreadCpu(ThreadMXBean threads) {
        long sum = 0;
        for (ThreadInfo t : threads.getThreadInfo(threads.getAllThreadIds())) {
            if (t != null && t.getThreadName().startsWith("meter-server")) {
                long cpu = threads.getThreadCpuTime(t.getThreadId());
                if (cpu > 0) {
                    sum += cpu;
                }
            }
        }
        return sum;
    }

}
