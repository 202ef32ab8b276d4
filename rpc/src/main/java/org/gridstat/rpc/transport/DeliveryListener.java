package org.gridstat.rpc.transport;

/** Told once how a message sent with acknowledgement fared. */
@FunctionalInterface
public interface DeliveryListener {
    /**
     * @param attempts the tries sent (1 + retries); for an acknowledged message, the try
     *                 acknowledged is among them
     */
    void delivered(long messageId, Delivery delivery, int attempts);

    DeliveryListener NONE = (id, d, a) -> { };
}
