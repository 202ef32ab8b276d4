package org.gridstat.benchmarks;

import java.util.Random;
import org.gridstat.broker.topology.Topology;

/** The generated 1,000-router topology of the admission benchmarks: a 25 x 40 grid with wrap-around, 2-5 ms links. */
final class GridTopology {
    static final int ROWS = 25;
    static final int COLUMNS = 40;
    static final int ROUTERS = ROWS * COLUMNS;

    private GridTopology() {
    }

    static Topology generate() {
        Topology.Builder b = Topology.builder();
        for (int i = 0; i < ROUTERS; i++) {
            b.router("r" + i, 1_000_000);
        }
        Random delays = new Random(2);
        for (int r = 0; r < ROWS; r++) {
            for (int c = 0; c < COLUMNS; c++) {
                int here = r * COLUMNS + c;
                b.between("r" + here, "r" + (r * COLUMNS + (c + 1) % COLUMNS), 12_500_000,
                        (2 + delays.nextInt(4)) * 1_000_000L, Topology.Builder.defaultShares());
                b.between("r" + here, "r" + (((r + 1) % ROWS) * COLUMNS + c), 12_500_000,
                        (2 + delays.nextInt(4)) * 1_000_000L, Topology.Builder.defaultShares());
            }
        }
        return b.build();
    }
}
