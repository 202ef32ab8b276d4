package org.gridstat.gui.view;

import org.gridstat.gui.model.ConsoleSnapshot;

/** A view repainted on the console's pulse from the snapshot taken for it, on the UI thread. */
public interface PulseView {
    /**
     * Shows the snapshot.
     *
     * @param changed whether the model changed since the last pulse (false: only ages move)
     */
    void show(ConsoleSnapshot snapshot, boolean changed);
}
