package org.gridstat.node.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Time the hypervisor kept each CPU from this machine, from {@code /proc/stat}'s steal column: on
 * a virtual machine a latency tail often comes from there rather than from the code measured.
 */
record CpuSteal(long[] steal, long[] total) {
    private static final Path STAT = Path.of("/proc/stat");

    /** Now, or null where the kernel does not tell. */
    static CpuSteal now() {
        try {
            List<long[]> cpus = new ArrayList<>();
            for (String line : Files.readAllLines(STAT)) {
                if (line.startsWith("cpu") && line.length() > 3 && Character.isDigit(line.charAt(3))) {
                    String[] f = line.trim().split("\\s+");
                    long total = 0;
                    for (int i = 1; i < f.length && i <= 8; i++) {
                        total += Long.parseLong(f[i]);
                    }
                    cpus.add(new long[] {f.length > 8 ? Long.parseLong(f[8]) : 0, total});
                }
            }
            long[] steal = new long[cpus.size()];
            long[] total = new long[cpus.size()];
            for (int i = 0; i < steal.length; i++) {
                steal[i] = cpus.get(i)[0];
                total[i] = cpus.get(i)[1];
            }
            return steal.length == 0 ? null : new CpuSteal(steal, total);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }

    /** The largest share of time stolen from any one CPU since {@code earlier}, in percent. */
    double worstPercentSince(CpuSteal earlier) {
        double worst = 0;
        for (int i = 0; i < Math.min(steal.length, earlier.steal.length); i++) {
            long t = total[i] - earlier.total[i];
            if (t > 0) {
                worst = Math.max(worst, 100.0 * (steal[i] - earlier.steal[i]) / t);
            }
        }
        return worst;
    }
}
