package org.gridstat.gateway.device;

import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.HeaderFrame;

/**
 * What a {@link PmuServer} serves. It is asked on every command, so a configuration change shows
 * in the next answer without telling the server. Called from the server's I/O thread: answers
 * must be quick and must not block.
 */
public interface ServedStream {
    /** The stream's IDCODE: a command naming another is refused. */
    int idCode();

    /** The CFG-1 to send (often CFG-2's content); never null once serving. */
    ConfigFrame config1();

    /** The CFG-2 to send: the layout of the data frames; never null once serving. */
    ConfigFrame config2();

    /** The CFG-3 to send, or null to derive one from {@link #config2()} (see {@link Config3FromConfig2}). */
    default Config3Frame config3() {
        return null;
    }

    /** The header frame to send, or null for a short text naming the stream and its PMUs. */
    default HeaderFrame header() {
        return null;
    }
}
