package org.gridstat.gui.whatif;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import org.gridstat.client.BrokerConnection;
import org.gridstat.core.management.QosDocument;
import org.gridstat.core.model.QosSpec;
import org.gridstat.gui.action.AdmissionPreview;
import org.gridstat.gui.action.StatedSurge;
import org.gridstat.gui.action.SubscriptionRequest;
import org.gridstat.sim.whatif.Candidate;
import org.gridstat.sim.whatif.Preview;
import org.gridstat.sim.whatif.PreviewSettings;
import org.gridstat.sim.whatif.PreviewTooLargeException;
import org.gridstat.sim.whatif.State;
import org.gridstat.sim.whatif.Surge;

/**
 * The console's "what if", by the simulator ({@link org.gridstat.sim.whatif.AdmissionPreview}):
 * the broker's state read at the moment of asking ({@link BrokerStateReader}), the form's request
 * as the candidate and its stated surge, if any. The candidate's QoS is made from the form as the
 * broker makes it from the request the console would send, so the preview judges the same spec.
 * Every failure becomes a line for the operator: the preview is advice, and a form must never show
 * a stack trace.
 */
public final class SimulatedPreview implements AdmissionPreview {
    /** A cancelled preview's one line. */
    static final String CANCELLED = "preview cancelled";
    private final BrokerStateReader state;
    private final PreviewSettings settings;

    public SimulatedPreview(BrokerConnection broker) {
        this(broker, PreviewSettings.DEFAULT);
    }

    public SimulatedPreview(BrokerConnection broker, PreviewSettings settings) {
        this.state = new BrokerStateReader(broker);
        this.settings = settings;
    }

    @Override
    public boolean available() {
        return true;
    }

    @Override
    public Result preview(SubscriptionRequest request, StatedSurge surge) {
        return preview(request, surge, () -> false);
    }

    /** Cancelled, it ends after the broker's state is read or within a simulated second of the runs. */
    @Override
    public Result preview(SubscriptionRequest request, StatedSurge surge, BooleanSupplier cancelled) {
        State s;
        try {
            s = state.read();
        } catch (BrokerStateReader.Unreadable e) {
            return says("cannot preview: " + e.getMessage());
        }
        try {
            Preview p = org.gridstat.sim.whatif.AdmissionPreview.preview(s, candidate(request),
                    surge == null ? null : new Surge(surge.variable(), surge.rateHz()), settings, cancelled);
            List<String> lines = new ArrayList<>(p.lines());
            lines.add(p.costLine());
            return new Result(lines);
        } catch (CancellationException e) {
            return says(CANCELLED);
        } catch (PreviewTooLargeException e) {
            return says("cannot preview: the network is too large to simulate here: " + e.getMessage());
        } catch (IllegalArgumentException e) {
            return says("cannot preview: " + e.getMessage());
        } catch (RuntimeException | OutOfMemoryError e) {
            // a simulator bug or a heap too small: said, not thrown, so the form stays usable
            return says("the preview failed: " + e.getClass().getSimpleName() + (e.getMessage() == null ? ""
                    : ": " + e.getMessage()));
        }
    }

    /** Labelled apart from the broker's subscriptions, which the state labels by their numeric ids. */
    static Candidate candidate(SubscriptionRequest r) {
        QosSpec qos = new QosDocument(r.rateHz(), null, r.latencyBoundMs(), r.paths(), r.serviceClass(),
                r.correlationGroup().isEmpty() ? null : r.correlationGroup()).toSpec();
        return new Candidate(Candidate.LABEL, r.variable(), r.router(), r.link(), qos);
    }

    private static Result says(String line) {
        return new Result(List.of(line));
    }
}
