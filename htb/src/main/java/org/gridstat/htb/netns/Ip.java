package org.gridstat.htb.netns;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** iproute2's ip, run to completion; a failure is an IOException with the command and what ip said. */
final class Ip {
    private static final long TIMEOUT_SECONDS = 30;
    private static final String EXECUTABLE = locate();

    private Ip() {
    }

    static String run(String... args) throws IOException {
        if (EXECUTABLE == null) {
            throw new IOException(whyNot());
        }
        List<String> command = new ArrayList<>(args.length + 1);
        command.add(EXECUTABLE);
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        try (InputStream out = p.getInputStream()) {
            p.getOutputStream().close();
            ByteArrayOutputStream text = new ByteArrayOutputStream();
            out.transferTo(text); // ends when ip exits (or closes its output)
            if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IOException("ip " + String.join(" ", args) + ": no exit in " + TIMEOUT_SECONDS + " s");
            }
            String said = text.toString(StandardCharsets.UTF_8).strip();
            if (p.exitValue() != 0) {
                throw new IOException("ip " + String.join(" ", args) + " failed (exit " + p.exitValue() + ")"
                        + (said.isEmpty() ? "" : ": " + said));
            }
            return said;
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted running ip " + String.join(" ", args), e);
        }
    }

    /** For removals: what is already gone is no error. */
    static void runQuietly(String... args) {
        try {
            run(args);
        } catch (IOException gone) {
            // nothing to remove
        }
    }

    static String whyNot() {
        return EXECUTABLE == null ? "iproute2's ip is not installed (not on PATH, /usr/sbin or /sbin)" : null;
    }

    private static String locate() {
        List<String> dirs = new ArrayList<>();
        String path = System.getenv("PATH");
        if (path != null) {
            dirs.addAll(List.of(path.split(":")));
        }
        dirs.addAll(List.of("/usr/sbin", "/sbin", "/usr/bin", "/bin"));
        for (String dir : dirs) {
            if (!dir.isEmpty()) {
                Path candidate = Path.of(dir, "ip");
                if (Files.isExecutable(candidate)) {
                    return candidate.toString();
                }
            }
        }
        return null;
    }
}
