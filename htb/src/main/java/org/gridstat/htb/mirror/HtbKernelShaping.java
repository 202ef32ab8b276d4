package org.gridstat.htb.mirror;

import org.gridstat.htb.Htb;
import org.gridstat.htb.HtbUnavailableException;
import org.gridstat.statusrouter.spi.KernelLink;
import org.gridstat.statusrouter.spi.KernelLinkPlan;
import org.gridstat.statusrouter.spi.KernelShaping;
import org.osgi.service.component.annotations.Component;
import org.osgi.service.component.annotations.Deactivate;

/**
 * Kernel shaping through Linux HTB, as a service routers bind: each link its router asks for gets
 * a {@link LinkClassTree} on its device. The native library is loaded and the netlink socket
 * opened on first use; where either fails, every link is refused with the reason and the router
 * shapes it.
 */
@Component(service = KernelShaping.class)
public final class HtbKernelShaping implements KernelShaping, AutoCloseable {
    private Htb htb;

    @Override
    public synchronized KernelLink open(KernelLinkPlan plan) throws Exception {
        if (htb == null) {
            try {
                htb = Htb.open();
            } catch (HtbUnavailableException e) {
                throw new Exception(e.reason(), e);
            }
        }
        String why = htb.whyNot(plan.device());
        if (why != null) {
            throw new Exception(why);
        }
        return LinkClassTree.build(htb, plan);
    }

    @Deactivate
    @Override
    public synchronized void close() {
        if (htb != null) {
            htb.close();
            htb = null;
        }
    }
}
