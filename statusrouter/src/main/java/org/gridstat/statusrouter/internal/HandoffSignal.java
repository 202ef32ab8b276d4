package org.gridstat.statusrouter.internal;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Wakes the data-path loop when other loops have handed frames over: an eventfd in the data-path
 * loop's epoll set, written by the handing loop. Unlike {@code EventLoop.execute}, whose task queue
 * grows in chunks that become garbage, signalling this way allocates nothing.
 */
final class HandoffSignal implements EpollIoHandle {
    private static final Logger LOG = LoggerFactory.getLogger(HandoffSignal.class);

    private final FileDescriptor eventFd = Native.newEventFd();
    private final Runnable onSignal;
    private final IoEventLoop loop;
    private IoRegistration registration;

    private HandoffSignal(IoEventLoop loop, Runnable onSignal) {
        this.loop = loop;
        this.onSignal = onSignal;
    }

    /** Registers a signal that runs {@code onSignal} on {@code loop} after each {@link #raise()}. */
    static HandoffSignal open(IoEventLoop loop, Runnable onSignal) {
        HandoffSignal signal = new HandoffSignal(loop, onSignal);
        try {
            signal.registration = loop.register(signal).syncUninterruptibly().getNow();
            signal.registration.submit(EpollIoOps.EPOLLIN);
        } catch (RuntimeException e) {
            signal.close();
            throw e;
        }
        return signal;
    }

    /** From any thread: makes the loop run the action (once for any number of raises before it runs). */
    void raise() {
        Native.eventFdWrite(eventFd.intValue(), 1L);
    }

    @Override
    public FileDescriptor fd() {
        return eventFd;
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        Native.eventFdRead(eventFd.intValue()); // resets the counter
        onSignal.run();
    }

    @Override
    public void close() {
        if (loop.inEventLoop() || loop.isShuttingDown()) {
            closeNow();
        } else {
            loop.submit(this::closeNow).syncUninterruptibly();
        }
    }

    private void closeNow() {
        if (registration != null) {
            registration.cancel();
        }
        try {
            eventFd.close();
        } catch (IOException e) {
            LOG.debug("closing the hand-off eventfd: {}", e.toString());
        }
    }
}
