package org.gridstat.node.cli;

import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.gridstat.core.model.ConfigLine;
import org.gridstat.core.model.ServiceClass;
import org.gridstat.core.sched.LinkSpec;
import org.gridstat.htb.ClassStatistics;
import org.gridstat.htb.Htb;
import org.gridstat.htb.HtbException;
import org.gridstat.htb.HtbUnavailableException;
import org.gridstat.htb.mirror.LinkClassTree;
import org.gridstat.statusrouter.spi.KernelFlow;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code gridstat htb}: the kernel's HTB class tree of a device, as routers mirror their links onto it. */
@Command(name = "htb", mixinStandardHelpOptions = true,
        header = "Shows, builds or removes the kernel HTB class tree a router mirrors its link onto.",
        description = {"The tree: root 1:, the link 1:1, unclassified packets 1:2, the classes HRT 1:10, LRT 1:20 and best"
                + " effort 1:30, and each flow a leaf from 1:101 with a u32 filter on its variable id (docs/kernel-htb.md)."
                + " Needs CAP_NET_ADMIN (root) and the native library of the distribution."},
        subcommands = {HtbCommand.Show.class, HtbCommand.Apply.class, HtbCommand.Clear.class},
        exitCodeListHeading = "%nExit codes:%n",
        exitCodeList = {"0:done", "1:the kernel refused (its error is printed)", "2:bad options",
                "3:kernel shaping is unavailable here (the reason is printed)"})
final class HtbCommand {
    @Option(names = "--dev", required = true, paramLabel = "IF", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "The network interface.")
    String device;

    /** Runs {@code work} on an open netlink socket, turning each failure into its exit code and one line. */
    static int withHtb(java.io.PrintWriter err, HtbWork work) {
        try (Htb htb = Htb.open()) {
            return work.run(htb);
        } catch (HtbUnavailableException e) {
            err.println("kernel shaping is unavailable: " + e.reason());
            return 3;
        } catch (HtbException | IllegalArgumentException | IllegalStateException e) { // the kernel's or the tree's refusal
            err.println(e.getMessage());
            return 1;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 1;
        }
    }

    @FunctionalInterface
    interface HtbWork {
        int run(Htb htb) throws HtbException, InterruptedException;
    }

    @Command(name = "show", mixinStandardHelpOptions = true,
            header = "Prints the device's HTB classes with their rates and counters, and each one's rate now.")
    static final class Show implements Callable<Integer> {
        @ParentCommand
        HtbCommand parent;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--interval", defaultValue = "1000", paramLabel = "MS",
                description = "Measures each class's rate over this many milliseconds (default ${DEFAULT-VALUE}; 0: none).")
        long intervalMs;

        @Override
        public Integer call() {
            if (intervalMs < 0 || intervalMs > 60_000) {
                spec.commandLine().getErr().println("--interval must be 0..60000 ms");
                return 2;
            }
            return withHtb(spec.commandLine().getErr(), htb -> {
                String root = htb.rootQdiscKind(parent.device);
                if (!"htb".equals(root)) {
                    spec.commandLine().getOut().println(parent.device + ": no HTB root qdisc (root: " + (root == null ? "none" : root) + ")");
                    return 0;
                }
                List<ClassStatistics> before = htb.classes(parent.device);
                long t0 = System.nanoTime();
                List<ClassStatistics> after = before;
                if (intervalMs > 0) {
                    Thread.sleep(intervalMs);
                    after = htb.classes(parent.device);
                }
                double seconds = (System.nanoTime() - t0) / 1e9;
                spec.commandLine().getOut().print(table(parent.device, before, after, intervalMs > 0 ? seconds : 0));
                return 0;
            });
        }
    }

    /** The classes as a table; the rate now is the bytes sent between the two readings over {@code seconds} (0: none). */
    static String table(String device, List<ClassStatistics> before, List<ClassStatistics> after, double seconds) {
        Map<Integer, ClassStatistics> earlier = new HashMap<>();
        before.forEach(c -> earlier.put(c.minor(), c));
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("CLASS", "NAME", "PARENT", "PRIO", "RATE B/s", "CEIL B/s", "SENT B", "PACKETS", "DROPS",
                "OVERLIMITS", "BACKLOG B", "QUEUED", "NOW B/s"));
        List<ClassStatistics> sorted = new ArrayList<>(after);
        sorted.sort(java.util.Comparator.comparingInt(ClassStatistics::minor));
        for (ClassStatistics c : sorted) {
            ClassStatistics b = earlier.get(c.minor());
            String now = seconds <= 0 || b == null ? "-" : String.format("%,d", Math.round((c.bytes() - b.bytes()) / seconds));
            rows.add(List.of("1:" + Integer.toHexString(c.minor()), LinkClassTree.nameOf(c.minor()),
                    c.parentMinor() == 0 ? "root" : "1:" + Integer.toHexString(c.parentMinor()), Integer.toString(c.prio()),
                    String.format("%,d", c.rateBytesPerSecond()), String.format("%,d", c.ceilBytesPerSecond()),
                    String.format("%,d", c.bytes()), String.format("%,d", c.packets()), String.format("%,d", c.drops()),
                    String.format("%,d", c.overlimits()), String.format("%,d", c.backlogBytes()),
                    String.format("%,d", c.queuedPackets()), now));
        }
        return device + ": HTB root 1:, " + after.size() + " classes\n" + TextTable.columns(rows);
    }

    @Command(name = "apply", mixinStandardHelpOptions = true,
            header = "Builds a link's class tree on the device, with flows, and leaves it there.",
            description = {"What a router builds for a link whose kernel.shaping line names the device: the link at its"
                    + " capacity, the classes at their shares, each flow a leaf at its rate steered by its variable id."})
    static final class Apply implements Callable<Integer> {
        @ParentCommand
        HtbCommand parent;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Option(names = "--capacity", required = true, paramLabel = "B/S", description = "The link's capacity, bytes per second.")
        long capacity;

        @Option(names = "--hrt", defaultValue = "50", description = "HRT share, percent (default ${DEFAULT-VALUE}).")
        long hrt;

        @Option(names = "--lrt", defaultValue = "30", description = "LRT share, percent (default ${DEFAULT-VALUE}).")
        long lrt;

        @Option(names = "--be", defaultValue = "20", description = "Best-effort share, percent (default ${DEFAULT-VALUE}).")
        long be;

        @Option(names = "--to", required = true, paramLabel = "IPV4",
                description = "The neighbour's IPv4 address: the flows' filters match packets sent to it.")
        String to;

        @Option(names = "--flow", paramLabel = "KEY=VALUE,...",
                description = "A flow: [id=N] variable=ID class=HRT|LRT|BE rate=B/s [ceil=B/s], keys separated by commas"
                        + " (the variable decimal or 0x hexadecimal, as its events carry it; ids and variables once each);"
                        + " repeatable.")
        List<String> flows = new ArrayList<>();

        @Override
        public Integer call() {
            LinkSpec link;
            Inet4Address neighbour;
            List<KernelFlow> kernelFlows = new ArrayList<>();
            try {
                link = LinkSpec.ofPercent(capacity, hrt, lrt, be, 0);
                InetAddress a = InetAddress.getByName(to);
                if (!(a instanceof Inet4Address v4)) {
                    throw new IllegalArgumentException("--to " + to + " is not an IPv4 address");
                }
                neighbour = v4;
                java.util.Set<Long> ids = new java.util.HashSet<>();
                java.util.Set<Long> variables = new java.util.HashSet<>();
                for (String f : flows) {
                    ConfigLine line = new ConfigLine(f.replace(',', ' '), java.util.Set.of("id", "variable", "class", "rate", "ceil"));
                    long rate = line.number("rate", 0);
                    long ceil = line.number("ceil", rate);
                    if (rate <= 0 || ceil < rate) {
                        throw line.error("rate must be positive and ceil at least the rate");
                    }
                    ServiceClass c;
                    try {
                        c = ServiceClass.valueOf(line.text("class").toUpperCase(java.util.Locale.ROOT));
                    } catch (IllegalArgumentException notAClass) {
                        c = ServiceClass.CONTROL;
                    }
                    if (c == ServiceClass.CONTROL) {
                        throw line.error("class must be HRT, LRT or BE");
                    }
                    // as the router's flows: decimal or 0x hexadecimal, unsigned 64-bit, not 0
                    long variable;
                    try {
                        variable = org.gridstat.core.model.VariableId.parse(line.text("variable")).value();
                    } catch (IllegalArgumentException bad) {
                        throw line.error(bad.getMessage());
                    }
                    long id = line.number("id", kernelFlows.size() + 1);
                    // one leaf and filter per flow, one flow per variable on a link (as the router's engine)
                    if (!ids.add(id)) {
                        throw line.error("flow id " + id + " is given twice");
                    }
                    if (!variables.add(variable)) {
                        throw line.error("variable " + Long.toUnsignedString(variable) + " has a flow already");
                    }
                    kernelFlows.add(new KernelFlow(id, variable, c, rate, ceil, 0, 0));
                }
            } catch (IllegalArgumentException | java.net.UnknownHostException e) {
                spec.commandLine().getErr().println(e.getMessage());
                return 2;
            }
            return withHtb(spec.commandLine().getErr(), htb -> {
                LinkClassTree tree = LinkClassTree.build(htb, new KernelLinkPlan("gridstat-htb", "link", parent.device,
                        new InetSocketAddress(neighbour, 0), null, link, org.gridstat.core.sched.FlowSpec.DEFAULT_BUFFER_EVENTS));
                tree.apply(kernelFlows); // left in place: 'gridstat htb clear' removes it
                spec.commandLine().getOut().print(table(parent.device, List.of(), htb.classes(parent.device), 0));
                return 0;
            });
        }
    }

    @Command(name = "clear", mixinStandardHelpOptions = true,
            header = "Removes the device's HTB root qdisc and everything under it; the device is as it was before.")
    static final class Clear implements Callable<Integer> {
        @ParentCommand
        HtbCommand parent;

        @picocli.CommandLine.Spec
        picocli.CommandLine.Model.CommandSpec spec;

        @Override
        public Integer call() {
            return withHtb(spec.commandLine().getErr(), htb -> {
                boolean removed = htb.clear(parent.device);
                spec.commandLine().getOut().println(parent.device + (removed ? ": HTB tree removed" : ": no HTB tree to remove"));
                return 0;
            });
        }
    }
}
