package org.gridstat.rpc.transport;

/** The layer above a 2WoPS endpoint: told each try of each DATA message once. */
@FunctionalInterface
public interface Inbox {
    void received(Inbound message);
}
