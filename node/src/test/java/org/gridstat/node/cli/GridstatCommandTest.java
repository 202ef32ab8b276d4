package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GridstatCommandTest {
    @TempDir
    Path dir;

    private record Run(int code, String out, String err) {
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = new CommandLine(new Gridstat());
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void helpListsEveryCommand() {
        Run r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("router"), r.out());
        assertTrue(r.out().contains("demo"), r.out());
        Run demo = run("help", "demo");
        assertTrue(demo.out().contains("--seconds"), demo.out());
        assertTrue(demo.out().contains("Exit codes"), demo.out());
        Run router = run("router", "--help");
        assertTrue(router.out().contains("--config"), router.out());
    }

    @Test
    void routerWithoutConfigIsAUsageError() {
        Run r = run("router");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--config"), r.err());
    }

    @Test
    void routerWithABadFileExitsTwoBeforeStartingAnything() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "node:\n  id: r1\nstatusRouter:\n  bnd: x\n");
        assertEquals(2, run("router", "--config", bad.toString(), "--bundles", dir.toString()).code());
    }

    @Test
    void demoRejectsNonsenseArguments() {
        assertEquals(2, run("demo", "--seconds", "0").code());
        assertEquals(2, run("demo", "--rate", "-1").code());
    }

    @Test
    void modifySendsOnlyTheOptionsGiven() throws Exception {
        java.util.List<String> bodies = new java.util.concurrent.CopyOnWriteArrayList<>();
        com.sun.net.httpserver.HttpServer broker = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress("127.0.0.1", 0), 0);
        broker.createContext("/api/v1/", exchange -> {
            bodies.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + new com.fasterxml.jackson.databind.ObjectMapper().readTree(exchange.getRequestBody()));
            byte[] answer = "{\"id\":8}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        broker.start();
        try {
            String url = "http://127.0.0.1:" + broker.getAddress().getPort();
            assertEquals(0, run("admin", "--broker", url, "modify", "8", "--rate", "10").code());
            assertEquals(0, run("admin", "--broker", url, "modify", "8", "--bound", "50ms", "--paths", "2").code());
            assertEquals(java.util.List.of("PUT /api/v1/subscriptions/8 {\"qos\":{\"rateHz\":10.0}}",
                    "PUT /api/v1/subscriptions/8 {\"qos\":{\"latencyBoundMs\":50.0,\"paths\":2}}"), bodies);
            Run nothing = run("admin", "--broker", url, "modify", "8");
            assertEquals(2, nothing.code(), "a modification that changes nothing is a usage error");
            assertEquals(2, bodies.size(), "and is not sent");
        } finally {
            broker.stop(0);
        }
    }
}
