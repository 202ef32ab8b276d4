package org.gridstat.htb.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Locale;
import org.gridstat.htb.HtbUnavailableException;

/**
 * Loads libgridstat-htb once per JVM: by {@link System#loadLibrary} first (an OSGi framework finds
 * it through the bundle's Bundle-NativeCode, a plain JVM through java.library.path), else from the
 * class path's {@code native/<os>-<arch>/libgridstat-htb.so}, copied to a temporary file for
 * {@link System#load}. A failure is remembered and reported the same way to every caller.
 */
public final class NativeLibrary {
    private static final String NAME = "gridstat-htb";

    private static boolean loaded;
    private static String failure;

    private NativeLibrary() {
    }

    public static synchronized void load() throws HtbUnavailableException {
        if (loaded) {
            return;
        }
        if (failure == null) {
            failure = tryLoad();
            loaded = failure == null;
        }
        if (failure != null) {
            throw new HtbUnavailableException(failure);
        }
    }

    /** {@code linux-x86_64} and the like, or null where no library is built. */
    static String platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "").toLowerCase(Locale.ROOT);
        if (!os.equals("linux")) {
            return null;
        }
        return switch (arch) {
            case "amd64", "x86_64" -> "linux-x86_64";
            case "aarch64", "arm64" -> "linux-aarch64";
            default -> null;
        };
    }

    private static String tryLoad() {
        try {
            System.loadLibrary(NAME);
            return null;
        } catch (UnsatisfiedLinkError notOnLibraryPath) {
            // not installed beside the JVM nor in a bundle: the class path's copy is next
        } catch (LinkageError | SecurityException e) {
            return "native library failed to load: " + e;
        }
        String platform = platform();
        String resource = platform == null ? null : "/native/" + platform + "/lib" + NAME + ".so";
        if (resource == null || NativeLibrary.class.getResource(resource) == null) {
            return "no native library for " + System.getProperty("os.name") + "/" + System.getProperty("os.arch");
        }
        Path copy = null;
        try (InputStream in = NativeLibrary.class.getResourceAsStream(resource)) {
            copy = Files.createTempFile("lib" + NAME + "-", ".so");
            Files.copy(in, copy, StandardCopyOption.REPLACE_EXISTING);
            System.load(copy.toAbsolutePath().toString());
            return null;
        } catch (IOException | LinkageError | SecurityException e) {
            return "native library failed to load: " + e;
        } finally {
            deleteQuietly(copy); // once loaded the mapping stays; the file is not needed
        }
    }

    private static void deleteQuietly(Path file) {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // a temporary file left behind
            }
        }
    }
}
