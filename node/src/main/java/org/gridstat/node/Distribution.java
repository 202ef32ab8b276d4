package org.gridstat.node;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where an installed distribution keeps its parts: {@code lib/} (the launcher's class path) and
 * {@code bundles/} (what runs inside a node's framework).
 */
public final class Distribution {
    /** System property naming the distribution's root folder; the {@code gridstat} script sets it. */
    public static final String HOME_PROPERTY = "gridstat.home";

    private Distribution() {
    }

    /** The distribution root: {@value #HOME_PROPERTY}, else the folder above the launcher jar's {@code lib/}. */
    public static Path home() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home != null) {
            return Path.of(home);
        }
        try {
            Path jar = Path.of(Distribution.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().getParent();
        } catch (URISyntaxException | NullPointerException e) {
            throw new IllegalStateException("cannot locate the distribution; set -D" + HOME_PROPERTY, e);
        }
    }

    public static Path bundles() {
        Path b = home().resolve("bundles");
        if (!Files.isDirectory(b)) {
            throw new IllegalStateException("no bundles folder at " + b + "; set -D" + HOME_PROPERTY
                    + " to the distribution (distribution/target/gridstat after a build)");
        }
        return b;
    }
}
