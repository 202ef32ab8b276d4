/**
 * Cooperative congestion control's local part (DESIGN.md §5): once per estimator period each
 * flow's demand R is compared with its reservation, and a {@link org.gridstat.core.congestion.CongestionPolicy}
 * moves assured bandwidth on the link from victim flows to congested HRT flows, never below a
 * victim's minimum rate, and gives it back when demand falls. Pure logic on the caller's clock;
 * the decisions are data ({@link org.gridstat.core.congestion.Decision}) for counters, notices
 * upstream, alarms to the broker and the operator console. Back-pressure: a flow that lent is held
 * to the samples its new rate carries, and {@link org.gridstat.core.congestion.NoticeRelay} advises
 * the hops its variable comes from, up to the publisher ({@link org.gridstat.core.congestion.SourceHold}).
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.core.congestion;
