package org.gridstat.sim.whatif;

import java.time.Duration;
import java.util.List;

/**
 * What admitting the candidate would do: the broker's answer, how each link's class reservations
 * change, and what the simulation of the resulting network (under the surge, if one is stated)
 * says of every subscription. All but {@code wallTime} is the same for the same inputs and seed.
 *
 * @param admitted        whether the broker's admission takes the candidate
 * @param refusal         the broker's reason if not; {@code null} if admitted
 * @param candidatePaths  the candidate's paths, routers joined by {@code ->}; empty if refused
 * @param stateProblems   what of the current state a fresh broker does not take as it is (left out)
 * @param links           every link's classes with a share: reserved before and after the candidate
 * @param flows           every subscription simulated, the candidate's last
 * @param shortfalls      HRT flows congestion control could not cover (its alarms to the broker)
 * @param surge           the surge simulated, or {@code null}
 * @param simulatedNanos  the simulated duration the figures cover
 * @param seed            the seed of the simulation
 * @param congestionControl whether the routers ran congestion control (the default)
 * @param notes           what else the operator should know (a capped duration, a surge on a
 *                        variable nobody subscribes to)
 * @param wallTime        how long the preview took
 */
public record Preview(boolean admitted, String refusal, List<String> candidatePaths, List<StateProblem> stateProblems,
                      List<LinkLoad> links, List<FlowOutlook> flows, List<Shortfall> shortfalls, Surge surge,
                      long simulatedNanos, long seed, boolean congestionControl, List<String> notes, Duration wallTime) {
    public Preview {
        candidatePaths = List.copyOf(candidatePaths);
        stateProblems = List.copyOf(stateProblems);
        links = List.copyOf(links);
        flows = List.copyOf(flows);
        shortfalls = List.copyOf(shortfalls);
        notes = List.copyOf(notes);
    }

    /** The link classes whose reservation the candidate changes. */
    public List<LinkLoad> tightened() {
        return links.stream().filter(l -> l.change() != 0).toList();
    }

    /** The subscriptions that would miss deadlines, overflow or lend bandwidth. */
    public List<FlowOutlook> troubled() {
        return flows.stream().filter(FlowOutlook::troubled).toList();
    }

    /** The outlook of the subscription labelled {@code label}, or {@code null}. */
    public FlowOutlook flow(String label) {
        return flows.stream().filter(f -> f.label().equals(label)).findFirst().orElse(null);
    }

    /** Human-readable lines for the console, most important first; the same for the same inputs. */
    public List<String> lines() {
        return PreviewText.lines(this);
    }

    /** What the preview cost, for the console's status line: {@code "previewed in 0.42 s"}. */
    public String costLine() {
        return String.format(java.util.Locale.ROOT, "previewed in %.2f s", wallTime.toNanos() / 1e9);
    }
}
