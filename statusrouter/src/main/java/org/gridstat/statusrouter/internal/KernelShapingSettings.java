package org.gridstat.statusrouter.internal;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.gridstat.core.model.ConfigLine;
import org.gridstat.statusrouter.spi.KernelShaping;

/**
 * Which out-links the kernel shapes, from the {@code kernel.shaping} lines, and the bundle that
 * does it ({@code null}: none installed; every link is then shaped by the router).
 *
 * <p>Line keys: {@code link} (an out-link's name, from the router's file or the broker's topology),
 * {@code device} (the interface its packets leave by), {@code estimator} ({@code router}, the
 * default: demand is the arrivals the router counts; {@code kernel}: the bytes the kernel's class
 * took in, sent, dropped or still queued, each estimator period).
 */
final class KernelShapingSettings {
    static final KernelShapingSettings NONE = new KernelShapingSettings(List.of(), null);
    private static final Set<String> KEYS = Set.of("link", "device", "estimator");
    /** An interface name as the kernel takes it: 1..15 bytes, no '/', ':' or white space. */
    private static final Pattern DEVICE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");

    /** One link the kernel is asked to shape. */
    record Link(String name, String device, boolean kernelEstimator) {
    }

    final List<Link> links;
    final KernelShaping provider;

    private KernelShapingSettings(List<Link> links, KernelShaping provider) {
        this.links = List.copyOf(links);
        this.provider = provider;
    }

    /**
     * @throws IllegalArgumentException naming each bad line: an unknown key, a missing link or
     *                                  device, a device name the kernel would refuse, a link or a
     *                                  device named twice (one tree per device)
     */
    static KernelShapingSettings parse(String[] lines, KernelShaping provider) {
        List<Link> links = new ArrayList<>();
        List<String> problems = new ArrayList<>();
        Map<String, String> deviceOf = new HashMap<>();
        for (String text : lines == null ? new String[0] : lines) {
            if (text == null || text.isBlank()) {
                continue;
            }
            try {
                ConfigLine line = new ConfigLine(text, KEYS);
                String link = line.text("link");
                String device = line.text("device");
                if (!DEVICE.matcher(device).matches()) {
                    throw line.error("device '" + device + "' is not an interface name (1 to 15 letters, digits, '_', '.', '@', '-')");
                }
                String estimator = line.text("estimator", "router");
                if (!estimator.equals("router") && !estimator.equals("kernel")) {
                    throw line.error("estimator must be router or kernel, got '" + estimator + "'");
                }
                if (deviceOf.containsKey(link)) {
                    throw line.error("link '" + link + "' is named twice");
                }
                if (deviceOf.containsValue(device)) {
                    throw line.error("device " + device + " is named for two links; the kernel shapes one link per device");
                }
                deviceOf.put(link, device);
                links.add(new Link(link, device, estimator.equals("kernel")));
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage());
            }
        }
        if (!problems.isEmpty()) {
            throw new IllegalArgumentException("kernel.shaping: " + String.join("; ", problems));
        }
        return links.isEmpty() ? NONE : new KernelShapingSettings(links, provider);
    }

    /** The line for {@code link}, or {@code null} if the router shapes it. */
    Link of(String link) {
        for (Link l : links) {
            if (l.name.equals(link)) {
                return l;
            }
        }
        return null;
    }
}
