package org.gridstat.statusrouter.internal;

import io.netty.channel.IoEvent;
import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.Native;
import io.netty.channel.unix.FileDescriptor;

/**
 * Wakes the data-path loop when other loops have handed frames over: an eventfd in the data-path
 * loop's epoll set, written by the handing loop. Unlike {@code EventLoop.execute}, whose task queue
 * grows in chunks that become garbage, signalling this way allocates nothing.
 */
final class HandoffSignal extends EpollReadable {
    private final FileDescriptor eventFd;
    private final Runnable onSignal;

    private HandoffSignal(IoEventLoop loop, FileDescriptor eventFd, Runnable onSignal) {
        super(loop, eventFd);
        this.eventFd = eventFd;
        this.onSignal = onSignal;
    }

    /** Registers a signal that runs {@code onSignal} on {@code loop} after each {@link #raise()}. */
    static HandoffSignal open(IoEventLoop loop, Runnable onSignal) {
        HandoffSignal signal = new HandoffSignal(loop, Native.newEventFd(), onSignal);
        signal.register();
        return signal;
    }

    /** From any thread: makes the loop run the action (once for any number of raises before it runs). */
    void raise() {
        Native.eventFdWrite(eventFd.intValue(), 1L);
    }

    @Override
    public void handle(IoRegistration registration, IoEvent event) {
        Native.eventFdRead(eventFd.intValue()); // resets the counter
        onSignal.run();
    }
}
