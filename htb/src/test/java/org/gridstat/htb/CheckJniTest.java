package org.gridstat.htb;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.htb.netns.VethLink;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Every native method, on its success and error paths, in a JVM run with -Xcheck:jni: it exits 0 and
 * the JVM's checks print no warning.
 */
class CheckJniTest {
    private VethLink link;

    @BeforeAll
    static void kernel() {
        KernelShaping.assumeAvailable();
    }

    @BeforeEach
    void wire() throws Exception {
        link = VethLink.create("gsh6", "10.77.6.1/24", "10.77.6.2/24");
    }

    @AfterEach
    void unwire() {
        if (link != null) {
            link.close();
        }
    }

    @Test
    void everyNativeMethodPassesTheJvmsJniChecks() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-Xcheck:jni", "-cp", System.getProperty("java.class.path"),
                JniExerciser.class.getName(), link.hostDevice(), link.farNamespace(), link.farDevice()))
                .redirectErrorStream(true).start();
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "the exerciser exited");
        String output = out.toString(StandardCharsets.UTF_8);
        System.out.print(output);

        assertEquals(0, p.exitValue(), output);
        assertTrue(output.lines().anyMatch(l -> l.equals("exercised")), output);
        assertTrue(output.lines().noneMatch(l -> l.contains("WARNING") || l.contains("FATAL ERROR")), output);
    }
}
