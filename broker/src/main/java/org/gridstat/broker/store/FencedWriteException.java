package org.gridstat.broker.store;

/**
 * ZooKeeper refused a change because another replica has claimed a later epoch: the change was
 * not made, and the replica that now leads may take the request.
 */
public final class FencedWriteException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    public FencedWriteException(String message) {
        super(message);
    }
}
