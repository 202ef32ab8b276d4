package org.gridstat.gateway.report;

import java.net.InetAddress;
import java.util.regex.Pattern;

/**
 * The names a report carries, a gateway's id and its devices' names, follow the broker's rule for
 * router ids (its topology's {@code Names}): the broker refuses a report with any other, so the
 * gateway checks them when it starts rather than at each report.
 */
public final class ReportNames {
    public static final int MAX_LENGTH = 64;
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._-]{1," + MAX_LENGTH + "}");
    /** The id of a gateway whose host name does not follow the rule. */
    public static final String FALLBACK_ID = "gateway";

    private ReportNames() {
    }

    public static boolean valid(String name) {
        return name != null && NAME.matcher(name).matches();
    }

    public static String rule() {
        return "1.." + MAX_LENGTH + " letters, digits, '.', '_' or '-'";
    }

    /**
     * The host's name as a gateway id: the environment's {@code HOSTNAME} if set (no name lookup),
     * else the local host's name; the first label of a long qualified name; {@value #FALLBACK_ID} if
     * none of those follows the rule.
     */
    public static String hostGatewayId() {
        String host = System.getenv("HOSTNAME");
        if (host == null || host.isBlank()) {
            try {
                host = InetAddress.getLocalHost().getHostName();
            } catch (java.io.IOException | RuntimeException e) {
                return FALLBACK_ID;
            }
        }
        if (valid(host)) {
            return host;
        }
        String label = host.split("\\.", 2)[0];
        return valid(label) ? label : FALLBACK_ID;
    }
}
