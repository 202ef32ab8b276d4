package org.gridstat.rpc.server;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An {@link Authorisation} from lines {@code caller: operation, operation, ...}; {@code *} as the
 * operation list grants every operation; {@code #} starts a comment. Anything not granted is
 * refused. Immutable.
 */
public final class PermissionTable implements Authorisation {
    private final Map<String, Set<String>> grants;

    private PermissionTable(Map<String, Set<String>> grants) {
        this.grants = grants;
    }

    /** @throws IllegalArgumentException naming the line that is wrong */
    public static PermissionTable parse(List<String> lines) {
        Map<String, Set<String>> g = new HashMap<>();
        int n = 0;
        for (String raw : lines) {
            n++;
            String line = raw.contains("#") ? raw.substring(0, raw.indexOf('#')) : raw;
            line = line.strip();
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(':');
            if (colon <= 0) {
                throw new IllegalArgumentException("permissions line " + n + ": expected 'caller: operation, ...', got '" + raw + "'");
            }
            String caller = line.substring(0, colon).strip();
            Set<String> ops = g.computeIfAbsent(caller, c -> new HashSet<>());
            for (String op : line.substring(colon + 1).split(",")) {
                String o = op.strip();
                if (o.isEmpty()) {
                    continue;
                }
                if (!o.equals("*") && !org.gridstat.rpc.call.RpcCodec.validOperation(o)) {
                    throw new IllegalArgumentException("permissions line " + n + ": '" + o + "' is not an operation name");
                }
                ops.add(o);
            }
        }
        return new PermissionTable(g);
    }

    public static PermissionTable read(Path file) throws IOException {
        return parse(Files.readAllLines(file, StandardCharsets.UTF_8));
    }

    @Override
    public boolean permits(String caller, String operation) {
        Set<String> ops = grants.get(caller);
        return ops != null && (ops.contains("*") || ops.contains(operation));
    }
}
