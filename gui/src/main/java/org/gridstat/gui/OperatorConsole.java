package org.gridstat.gui;

import java.io.PrintWriter;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import javafx.application.Platform;
import javafx.stage.Stage;
import org.gridstat.client.BrokerConnection;
import org.gridstat.gui.action.BrokerActions;
import org.gridstat.gui.feed.ConsoleFeed;
import org.gridstat.gui.feed.EventStreamFeed;
import org.gridstat.gui.feed.PollingFeed;
import org.gridstat.gui.model.ConsoleModel;
import org.gridstat.gui.view.ConsoleWindow;
import org.gridstat.gui.whatif.SimulatedPreview;

/**
 * Starts the operator console on a broker's management API: a window with the console's views,
 * fed by an {@link EventStreamFeed} (or a {@link PollingFeed} if asked), until the operator closes it. Not a JavaFX {@code Application}:
 * it starts the toolkit itself, so JavaFX may sit on the class path of {@code gridstat}.
 */
public final class OperatorConsole {
    private OperatorConsole() {
    }

    /** Runs the console on the broker's event stream until its window is closed. */
    public static int run(List<URI> brokers, java.util.Map<String, String> environment, PrintWriter err) {
        return run(brokers, false, environment, err);
    }

    /**
     * Runs the console until its window is closed.
     *
     * @param poll        read every GET route every second ({@link PollingFeed}) instead of the event
     *                    stream: for a broker without {@code /api/v1/events}, or a proxy that buffers it
     * @param environment the process's environment, where the display is named
     * @param err         where to say why the console cannot start
     * @return the exit code: 0 closed by the operator, 1 no display or JavaFX could not start
     */
    public static int run(List<URI> brokers, boolean poll, java.util.Map<String, String> environment, PrintWriter err) {
        String noDisplay = DisplayCheck.missing(environment, System.getProperties());
        if (noDisplay != null) {
            err.println(noDisplay);
            err.flush();
            return 1;
        }
        ConsoleModel model = new ConsoleModel();
        ConsoleFeed feed = poll ? new PollingFeed(brokers) : new EventStreamFeed(brokers);
        BrokerActions actions = new BrokerActions(BrokerConnection.connect(brokers, Duration.ofSeconds(10),
                Duration.ofSeconds(15)));
        // its own connection: a preview's reads must not wait behind an action, nor an action behind them
        SimulatedPreview preview = new SimulatedPreview(BrokerConnection.connect(brokers, Duration.ofSeconds(10),
                Duration.ofSeconds(15)));
        CountDownLatch closed = new CountDownLatch(1);
        AtomicReference<Throwable> failed = new AtomicReference<>();
        try {
            Platform.setImplicitExit(false);
            Platform.startup(() -> {
                try {
                    ConsoleWindow window = new ConsoleWindow(model, actions, preview, feed.describe());
                    Stage stage = new Stage();
                    stage.setTitle("GridStat operator console — " + feed.describe());
                    stage.setScene(window.scene());
                    stage.setOnHidden(e -> {
                        window.stop();
                        closed.countDown();
                    });
                    window.start();
                    stage.show();
                } catch (RuntimeException | Error e) {
                    failed.set(e);
                    closed.countDown();
                }
            });
        } catch (RuntimeException | Error e) { // no usable graphics: missing native libraries, a display that refuses
            err.println("gridstat gui: JavaFX could not open a window: " + e.getMessage()
                    + " (scripts/setup installs the libraries JavaFX needs: GTK 3, OpenGL, fontconfig, fonts)");
            err.flush();
            actions.close();
            return 1;
        }
        feed.start(model);
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            feed.close();
            actions.close();
            Platform.exit();
        }
        if (failed.get() != null) {
            err.println("gridstat gui: the console failed to start: " + failed.get());
            err.flush();
            return 1;
        }
        return 0;
    }
}
