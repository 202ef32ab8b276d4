package org.gridstat.htb;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.gridstat.htb.netns.VethLink;

/** What the kernel tests need: namespaces, veth pairs and the native library, or a skip saying which is missing. */
final class KernelShaping {
    private KernelShaping() {
    }

    /** Skips the calling test class unless veth links can be made and Htb opens. */
    static void assumeAvailable() {
        String veth = VethLink.whyNot();
        assumeTrue(veth == null, () -> "no network namespaces: " + veth);
        try (Htb htb = Htb.open()) {
            // opens: the library loads and the socket is allowed
        } catch (HtbUnavailableException e) {
            assumeTrue(false, () -> "no kernel shaping: " + e.reason());
        }
    }

    /** tc's output for these arguments; fails the test if tc fails. */
    static String tc(String... args) throws IOException, InterruptedException {
        return run("tc", args);
    }

    /** ip's output for these arguments; fails the test if ip fails. */
    static String ip(String... args) throws IOException, InterruptedException {
        return run("ip", args);
    }

    private static String run(String tool, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(tool);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getOutputStream().close();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(tool + " " + String.join(" ", args) + " did not exit");
        }
        String text = out.toString(StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(tool + " " + String.join(" ", args) + " failed: " + text);
        }
        return text;
    }
}
