package org.gridstat.statusrouter.spi;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Consumer;
import org.gridstat.core.congestion.NoticeRelay;
import org.gridstat.core.control.ControlLiveness;
import org.gridstat.core.control.ControlMessage.Upstream;
import org.gridstat.core.time.NanoClock;

/** What a running data plane lends its congestion-notice channels (implemented by the router, not by its users). */
@org.osgi.annotation.versioning.ProviderType
public interface NoticeHost {
    /** An out-link: named by the next router's id, at {@code host} (a name or an IP address). */
    record OutLink(String name, String host) {
    }

    String nodeId();

    /** The out-links, in the data path's numbering (a notice's link is its index here). */
    List<OutLink> outLinks();

    /** The data port's address: the notice channels listen on TCP at the same address and port. */
    InetSocketAddress dataAddress();

    /** The monotonic clock for heartbeats and silence. */
    NanoClock clock();

    ControlLiveness.Timing timing();

    /** The previous hop numbered {@code hop} in the flows' {@code upstreamHops}, or {@code null}. */
    Upstream previousHop(int hop);

    /** Sends the relay's advice to previous hops to {@code out} from now on (any thread calls it; it must hand over). */
    void adviseTo(NoticeRelay.Advice out);

    /** Runs {@code task} on the data path with its relay. */
    void onRelay(Consumer<NoticeRelay> task);
}
