package org.gridstat.node.cli;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class GridstatCommandTest {
    @TempDir
    Path dir;

    private static CommandRun run(String... args) {
        return CommandRun.of(args);
    }

    @Test
    void guiWithoutADisplaySaysSoAndExitsOneWithoutAStackTrace() {
        java.io.StringWriter err = new java.io.StringWriter();
        picocli.CommandLine cmd = Gridstat.commandLine();
        cmd.setErr(new java.io.PrintWriter(err));
        picocli.CommandLine gui = cmd.getSubcommands().get("gui");
        ((GuiCommand) gui.getCommand()).environment = java.util.Map.of("HOME", "/root"); // no DISPLAY, no Wayland
        int code = cmd.execute("gui", "--broker", "http://127.0.0.1:8470");
        assertEquals(1, code, err.toString());
        assertTrue(err.toString().contains("gridstat gui needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set"),
                err.toString());
        assertFalse(err.toString().contains("Exception"), err.toString());
        assertFalse(err.toString().contains("\tat "), err.toString());
        CommandRun bad = run("gui", "--broker", "ftp://x");
        assertEquals(2, bad.code(), bad.err());
        CommandRun badPort = run("gui", "--broker", "http://127.0.0.1:84700");
        assertEquals(2, badPort.code(), badPort.err());
        assertTrue(badPort.err().contains("--broker: expected http://host:port"), badPort.err());
    }

    @Test
    void helpListsEveryCommand() {
        CommandRun r = run("--help");
        assertEquals(0, r.code());
        assertTrue(r.out().contains("router"), r.out());
        assertTrue(r.out().contains("demo"), r.out());
        CommandRun demo = run("help", "demo");
        assertTrue(demo.out().contains("--seconds"), demo.out());
        assertTrue(demo.out().contains("Exit codes"), demo.out());
        CommandRun router = run("router", "--help");
        assertTrue(router.out().contains("--config"), router.out());
    }

    @Test
    void routerWithoutConfigIsAUsageError() {
        CommandRun r = run("router");
        assertEquals(2, r.code());
        assertTrue(r.err().contains("--config"), r.err());
    }

    @Test
    void routerWithABadFileExitsTwoBeforeStartingAnything() throws IOException {
        Path bad = Files.writeString(dir.resolve("bad.yaml"), "node:\n  id: r1\nstatusRouter:\n  bnd: x\n");
        assertEquals(2, run("router", "--config", bad.toString(), "--bundles", dir.toString()).code());
    }

    @Test
    void aTypoInALinkExitsTwoAndIsReportedOnceBeforeAnyFrameworkStarts() throws IOException {
        Path typo = Files.writeString(dir.resolve("typo.yaml"), "node:\n  id: r1\nstatusRouter:\n  links:\n"
                + "    - {name: r2, adress: 127.0.0.1:9480}\n");
        java.io.PrintStream err = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true));
        int code;
        try {
            code = run("router", "--config", typo.toString(), "--bundles", dir.toString()).code();
        } finally {
            System.setErr(err);
        }
        String said = captured.toString();
        assertEquals(2, code, said);
        assertTrue(said.contains("typo.yaml: invalid status router configuration: links: 'name=r2 adress=127.0.0.1:9480':"
                + " unknown key 'adress'"), said);
        assertEquals(said.indexOf("unknown key"), said.lastIndexOf("unknown key"), "said once: " + said);
    }

    @Test
    void helpNeverCutsASentence() {
        String top = run("--help").out();
        String commands = top.substring(top.indexOf("Commands:") + "Commands:".length()).strip();
        for (String entry : commands.split("\n(?=  \\S)")) {
            assertTrue(entry.strip().endsWith("."), "a command's summary ends its sentence: " + entry);
        }
        checkSentences(Gridstat.commandLine().getCommandSpec());
    }

    private static void checkSentences(CommandLine.Model.CommandSpec spec) {
        for (String[] texts : new String[][] {spec.usageMessage().header(), spec.usageMessage().description()}) {
            for (String raw : texts) {
                String paragraph = raw.replace("%n", "");
                assertTrue(paragraph.strip().matches("(?s).*[.)]"), spec.qualifiedName() + ": a paragraph ends its sentence: "
                        + paragraph);
            }
        }
        spec.subcommands().values().forEach(sub -> checkSentences(sub.getCommandSpec()));
    }

    @Test
    void testbedCccOffersItsOptionsAndRejectsNonsense() {
        CommandRun help = run("testbed", "ccc", "--help");
        assertEquals(0, help.code());
        assertTrue(help.out().contains("--time-scale") && help.out().contains("--congestion"), help.out());
        assertEquals(2, run("testbed", "ccc", "--time-scale", "0").code());
        assertEquals(2, run("testbed", "ccc", "--time-scale", "11").code());
        assertEquals(2, run("testbed", "ccc", "--congestion", "maybe").code());
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
            CommandRun nothing = run("admin", "--broker", url, "modify", "8");
            assertEquals(2, nothing.code(), "a modification that changes nothing is a usage error");
            assertEquals(2, bodies.size(), "and is not sent");
        } finally {
            broker.stop(0);
        }
    }
}
