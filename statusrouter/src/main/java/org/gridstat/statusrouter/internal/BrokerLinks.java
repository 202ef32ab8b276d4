package org.gridstat.statusrouter.internal;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.gridstat.core.control.ControlMessage;

/**
 * The out-links a broker gives a router, as far as the router takes them: the links of its own file
 * win, so a broker link of the same name is refused, as is one that a link line of the file would
 * refuse. What is taken is appended after the file's links, so the file's flows keep their links.
 */
final class BrokerLinks {
    /** The broker's links taken, as sent, and as the router runs them. */
    final List<ControlMessage.OutLink> taken;
    final List<OutLinkConfig> configs;
    /** Why each link not taken was refused. */
    final List<String> refusals;

    private BrokerLinks(List<ControlMessage.OutLink> taken, List<OutLinkConfig> configs, List<String> refusals) {
        this.taken = List.copyOf(taken);
        this.configs = List.copyOf(configs);
        this.refusals = List.copyOf(refusals);
    }

    static final BrokerLinks NONE = new BrokerLinks(List.of(), List.of(), List.of());

    /** @param ownLinks the names of the links the router's own configuration gives it */
    static BrokerLinks resolve(Collection<String> ownLinks, ControlMessage.OutLinks message) {
        Set<String> own = Set.copyOf(ownLinks);
        List<ControlMessage.OutLink> taken = new ArrayList<>();
        List<OutLinkConfig> configs = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        for (ControlMessage.OutLink l : message.links()) {
            if (own.contains(l.name())) {
                refusals.add("out-link '" + l.name() + "' is configured in the router's own file, which wins");
                continue;
            }
            try {
                configs.add(OutLinkConfig.of(l));
                taken.add(l);
            } catch (IllegalArgumentException e) {
                refusals.add("out-link '" + l.name() + "' refused: " + e.getMessage());
            }
        }
        return new BrokerLinks(taken, configs, refusals);
    }
}
