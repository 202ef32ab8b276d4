package org.gridstat.gui.action;

import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/** How the actions' texts write a rate and a bound: as few decimals as the value has, with its unit. */
final class Figures {
    private Figures() {
    }

    static String hz(double hz) {
        return plain(hz) + " Hz";
    }

    static String ms(double ms) {
        return plain(ms) + " ms";
    }

    static String plain(double v) {
        return new DecimalFormat("0.###", DecimalFormatSymbols.getInstance(Locale.ROOT)).format(v);
    }
}
