/**
 * The pre- and post-condition language of Ratatoskr RPC: a server checks a {@link
 * org.gridstat.rpc.condition.Condition} over the latest samples of the status variables it
 * subscribes to ({@link org.gridstat.rpc.condition.StatusView}, kept by {@link
 * org.gridstat.rpc.condition.LatestValues}) before an actuator runs and again after a settling
 * delay. A condition is parsed once, when an operation is exported, and evaluated many times; a
 * condition that cannot be established is false, and a false {@link
 * org.gridstat.rpc.condition.Verdict} says in words which part failed. Grammar, semantics and
 * limits: docs/rpc-conditions.md.
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.rpc.condition;
