package org.gridstat.statusrouter.internal;

import io.netty.channel.IoEventLoop;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandle;
import io.netty.channel.epoll.EpollIoOps;
import io.netty.channel.unix.FileDescriptor;
import java.io.IOException;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A file descriptor read straight from an epoll event loop, below Netty's channels: registered
 * level-triggered for input, and on close taken out of the loop's epoll set before it is closed.
 */
abstract class EpollReadable implements EpollIoHandle {
    private static final Logger LOG = LoggerFactory.getLogger(EpollReadable.class);

    static final long CLOSE_WAIT_MILLIS = 2000;

    private final IoEventLoop loop;
    private final FileDescriptor fd;
    private IoRegistration registration;

    EpollReadable(IoEventLoop loop, FileDescriptor fd) {
        this.loop = loop;
        this.fd = fd;
    }

    /** Starts reading on the loop; closes the descriptor if that fails. */
    final void register() {
        try {
            registration = loop.register(this).syncUninterruptibly().getNow();
            registration.submit(EpollIoOps.EPOLLIN);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    @Override
    public final FileDescriptor fd() {
        return fd;
    }

    /**
     * Stops reading and closes the descriptor, on the loop so the epoll registration goes first and
     * no read is under way. A loop that has ended took its epoll set with it: then, or if the loop
     * does not take the task within {@link #CLOSE_WAIT_MILLIS}, the descriptor is closed from here.
     */
    @Override
    public final void close() {
        if (loop.inEventLoop()) {
            closeNow();
            return;
        }
        try {
            if (!loop.isTerminated() && loop.submit(this::closeNow).awaitUninterruptibly(CLOSE_WAIT_MILLIS)) {
                return;
            }
        } catch (RejectedExecutionException ended) {
            // the loop stopped taking tasks: close from here
        }
        closeQuietly(fd);
    }

    private void closeNow() {
        if (registration != null) {
            registration.cancel();
        }
        closeQuietly(fd);
    }

    static void closeQuietly(FileDescriptor fd) {
        try {
            fd.close();
        } catch (IOException e) {
            LOG.debug("closing {}: {}", fd, e.toString());
        }
    }
}
