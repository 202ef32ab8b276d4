package org.gridstat.sim.reproduce;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.engine.EventLoop;
import org.gridstat.sim.scenario.Scenario;

/**
 * Duration faults on a set of links: each link, independently, goes down for a fixed length at the
 * times of a Poisson process that restarts when it comes back up (mean {@code every} from the end
 * of one outage to the start of the next), so it is up {@code every / (every + length)} of the
 * time. Each link draws from its own stream, split from the seed in the links' order.
 *
 * <p>The same outages either as timeline entries of a scenario ({@link #timeline}), or drawn as
 * the run goes ({@link #drive}): a run of any length then holds one pending change per link
 * instead of all of them.
 */
final class LinkOutages {
    private final List<String> links;
    private final long everyNanos;
    private final long forNanos;
    private final long seed;

    /**
     * @param everyNanos mean time from the end of an outage to the start of the next
     * @param forNanos   each outage's length
     */
    LinkOutages(List<String> links, long everyNanos, long forNanos, long seed) {
        if (everyNanos <= 0 || forNanos <= 0) {
            throw new IllegalArgumentException("outages need a mean time between them and a length above 0");
        }
        this.links = List.copyOf(links);
        this.everyNanos = everyNanos;
        this.forNanos = forNanos;
        this.seed = seed;
    }

    /** One link's outages: the start of each, in order. */
    private final class Process {
        private final String link;
        private final SplittableRandom random;
        /** When the link last came up (or the run started). */
        private long upSince;

        Process(String link, SplittableRandom random) {
            this.link = link;
            this.random = random;
        }

        long nextStart() {
            return upSince + (long) (-Math.log(1 - random.nextDouble()) * everyNanos);
        }

        long end(long start) {
            upSince = start + forNanos;
            return upSince;
        }
    }

    private List<Process> processes() {
        SplittableRandom root = new SplittableRandom(seed ^ 0x5EEDL);
        List<Process> out = new ArrayList<>();
        for (String l : links) {
            out.add(new Process(l, root.split()));
        }
        return out;
    }

    /** Every outage's cut and restore before {@code durationNanos}, as timeline entries. */
    List<Scenario.Change> timeline(long durationNanos) {
        List<Scenario.Change> out = new ArrayList<>();
        for (Process p : processes()) {
            while (true) {
                long start = p.nextStart();
                if (start >= durationNanos) {
                    break;
                }
                out.add(new Scenario.LinkState(start, p.link, false));
                long end = p.end(start);
                if (end < durationNanos) {
                    out.add(new Scenario.LinkState(end, p.link, true));
                }
            }
        }
        return out;
    }

    /**
     * Draws the outages as the run goes: each cut and restore is handed to {@code apply} at its
     * time on {@code loop} ({@link Simulation#change}, on a scenario without them).
     */
    void drive(EventLoop loop, Consumer<Scenario.LinkState> apply) {
        for (Process p : processes()) {
            scheduleNext(loop, apply, p);
        }
    }

    private void scheduleNext(EventLoop loop, Consumer<Scenario.LinkState> apply, Process p) {
        long start = p.nextStart();
        loop.at(start, () -> {
            apply.accept(new Scenario.LinkState(start, p.link, false));
            long end = p.end(start);
            loop.at(end, () -> {
                apply.accept(new Scenario.LinkState(end, p.link, true));
                scheduleNext(loop, apply, p);
            });
        });
    }
}
