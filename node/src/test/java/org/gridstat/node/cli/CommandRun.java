package org.gridstat.node.cli;

import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/** One run of the {@code gridstat} command line in the test's JVM: its exit code and what it printed. */
record CommandRun(int code, String out, String err) {
    static CommandRun of(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = Gridstat.commandLine();
        cmd.setOut(new PrintWriter(out));
        cmd.setErr(new PrintWriter(err));
        int code = cmd.execute(args);
        return new CommandRun(code, out.toString(), err.toString());
    }
}
