package org.gridstat.gui;

import java.util.Map;
import java.util.Properties;

/**
 * Whether the console has a screen to open a window on: an X display ({@code DISPLAY}), a Wayland
 * one ({@code WAYLAND_DISPLAY}), or JavaFX forced headless (Monocle's headless platform, as the
 * tests run it).
 */
public final class DisplayCheck {
    private DisplayCheck() {
    }

    /** Why there is no display, or {@code null} if there is one. */
    public static String missing(Map<String, String> environment, Properties properties) {
        if (headlessForced(properties)) {
            return null;
        }
        if (!blank(environment.get("DISPLAY")) || !blank(environment.get("WAYLAND_DISPLAY"))) {
            return null;
        }
        return "gridstat gui needs a display: neither DISPLAY nor WAYLAND_DISPLAY is set. Run it in a desktop session "
                + "(or with ssh -X), or use `gridstat admin --broker URL show flows` for the same data as text.";
    }

    static boolean headlessForced(Properties p) {
        return "Monocle".equals(p.getProperty("glass.platform")) && "Headless".equals(p.getProperty("monocle.platform"));
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
