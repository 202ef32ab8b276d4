package org.gridstat.sim.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;
import org.gridstat.sim.Simulation;
import org.gridstat.sim.SimulationResult;
import org.gridstat.sim.scenario.ScenarioFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportPlotsTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    @Test
    void latencyThroughputAndDropsAreWrittenAsPngs() throws IOException {
        List<Path> files = Plots.write(Runs.noisy(3), dir.resolve("plots"));
        assertEquals(List.of("latency.png", "throughput.png", "drops.png"),
                files.stream().map(p -> p.getFileName().toString()).toList());
        for (Path f : files) {
            assertPng(f);
        }
    }

    @Test
    void aSubscriptionThatNeverGetsASampleIsPlottedToo() throws IOException {
        String cut = Runs.NOISY.replace("raw:", "timeline:\n  - {at: 0s, cut: r2->r3}\nraw:");
        SimulationResult r = Simulation.run(ScenarioFile.parse(cut, "cut.yaml", Path.of("."), "cut", Map.of()));
        assertEquals(0, r.summary("cc").delivered());
        for (Path f : Plots.write(r, dir)) {
            assertPng(f);
        }
    }

    @Test
    void aRunWithoutAdmittedSubscriptionsHasNoPlots() {
        SimulationResult r = new SimulationResult("none", 1, 1, Map.of("x", "refused: no"), List.of(), List.of(), Map.of(),
                Map.of(), 0);
        assertEquals(List.of(), Plots.write(r, dir));
    }

    private static void assertPng(Path f) throws IOException {
        byte[] bytes = Files.readAllBytes(f);
        assertArrayEquals(PNG_SIGNATURE, Arrays.copyOf(bytes, 8), f + " is a PNG");
        assertTrue(bytes.length > 10_000, f + " has a chart in it: " + bytes.length + " bytes");
        BufferedImage image = ImageIO.read(f.toFile());
        assertEquals(Plots.WIDTH, image.getWidth());
        assertEquals(Plots.HEIGHT, image.getHeight());
        int first = image.getRGB(Plots.WIDTH / 2, Plots.HEIGHT / 2);
        boolean varied = false;
        for (int x = 0; x < Plots.WIDTH && !varied; x += 7) {
            for (int y = 0; y < Plots.HEIGHT && !varied; y += 7) {
                varied = image.getRGB(x, y) != first;
            }
        }
        assertTrue(varied, f + " is not one colour");
    }
}
