package org.gridstat.broker.control;

/** Told when a router's control session starts and ends (the broker's store registers it). */
public interface RouterPresence {
    RouterPresence NONE = new RouterPresence() {
        @Override
        public void connected(String router, String peer) {
        }

        @Override
        public void disconnected(String router) {
        }
    };

    void connected(String router, String peer);

    void disconnected(String router);
}
