package org.gridstat.client;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's Java blocks compile as written: each is the body of a {@code main} method with its
 * imports above the class, as the README says, against the client and core on the test class path.
 * Blocks that import the RPC API ({@code org.gridstat.rpc}, a module above this one) are compiled
 * by the rpc module's own test.
 */
class ReadmeSnippetsTest {
    private static final Pattern JAVA_BLOCK = Pattern.compile("```java\\n(.*?)```", Pattern.DOTALL);

    @TempDir
    Path out;

    @Test
    void everyJavaBlockOfTheReadmeCompilesAsWritten() throws IOException {
        List<String> blocks = blocks(Files.readString(Path.of("../README.md")));
        assertTrue(blocks.size() >= 3, "the README shows the API in Java blocks: " + blocks.size());
        for (int i = 0; i < blocks.size(); i++) {
            String errors = compile(i, blocks.get(i));
            assertEquals("", errors, "README java block " + (i + 1) + ":\n" + blocks.get(i));
        }
    }

    @Test
    void aBlockWithoutAnImportItNeedsDoesNotCompile() throws IOException {
        String first = blocks(Files.readString(Path.of("../README.md"))).get(0);
        String missing = first.replace("import java.net.URI;\n", "");
        assertNotEquals(first, missing, "the first block imports URI");
        assertTrue(compile(0, missing).contains("URI"), "the harness fails on a missing import");
    }

    private static List<String> blocks(String readme) {
        List<String> blocks = new ArrayList<>();
        Matcher m = JAVA_BLOCK.matcher(readme);
        while (m.find()) {
            if (!m.group(1).contains("import org.gridstat.rpc.")) {
                blocks.add(m.group(1));
            }
        }
        return blocks;
    }

    /** Compiles a block as a class of its own; returns the compiler's errors, empty if none. */
    private String compile(int n, String block) {
        StringBuilder imports = new StringBuilder();
        StringBuilder body = new StringBuilder();
        for (String line : block.split("\n")) {
            (line.startsWith("import ") ? imports : body).append(line).append('\n');
        }
        String name = "ReadmeBlock" + (n + 1);
        String source = imports + "public class " + name + " {\n    public static void main(String[] args) throws Exception {\n"
                + body + "    }\n}\n";
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        JavaFileObject file = new SimpleJavaFileObject(java.net.URI.create("string:///" + name + ".java"),
                JavaFileObject.Kind.SOURCE) {
            @Override
            public CharSequence getCharContent(boolean ignoreEncodingErrors) {
                return source;
            }
        };
        String classPath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        StringWriter errors = new StringWriter();
        boolean ok = javac.getTask(errors, null, null, List.of("-classpath", classPath, "-d", out.toString(),
                "-proc:none", "-Xlint:none"), null, List.of(file)).call();
        return ok ? "" : errors.toString();
    }
}
