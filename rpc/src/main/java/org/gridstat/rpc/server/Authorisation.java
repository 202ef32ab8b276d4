package org.gridstat.rpc.server;

/** Decides, before anything else, whether a caller may call an operation. */
@FunctionalInterface
public interface Authorisation {
    /** Runs in the server's thread; an exception refuses the request as unauthorised. */
    boolean permits(String caller, String operation);

    /** Refuses everything: a server given no policy acts for nobody. */
    Authorisation DENY_ALL = (caller, operation) -> false;
}
