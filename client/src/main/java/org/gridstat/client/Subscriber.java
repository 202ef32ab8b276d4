package org.gridstat.client;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.DatagramChannel;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.gridstat.core.time.Clock;
import org.gridstat.core.time.SystemClock;
import org.gridstat.core.wire.DatagramReader;
import org.gridstat.core.wire.RejectReason;
import org.gridstat.core.wire.StatusEventDecoder;
import org.gridstat.core.wire.WireFormat;

/**
 * Receives status events on a UDP endpoint and hands each valid one to a listener, on a receive
 * thread of its own, whether they arrive one per datagram or several in a batch. Each (variable,
 * sequence) is delivered once, however many paths bring a copy; later copies are counted and
 * discarded. Malformed events are counted by reason and dropped, each event of a batch on its own.
 * Close it to stop the thread and free the port.
 */
public final class Subscriber implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(Subscriber.class.getName());
    /** Room for the largest datagram (a batch of events), and more, so oversize ones are seen as such. */
    private static final int RECEIVE_BUFFER = WireFormat.MAX_DATAGRAM_LENGTH + 1;
    private static final int DEFAULT_SOCKET_BUFFER = 4 << 20;

    private final DatagramChannel channel;
    private final StatusEventListener listener;
    private final Clock clock;
    private final Thread receiver;
    private final AtomicLong listenerErrors = new AtomicLong();
    private final AtomicLongArray rejected = new AtomicLongArray(RejectReason.values().length);
    private final java.util.Map<Long, Stream> streams = new java.util.concurrent.ConcurrentHashMap<>();
    /**
     * Most variables tracked: a sender spraying variable ids cannot grow the subscriber beyond this;
     * events of further variables are dropped and counted as {@code UNKNOWN_VARIABLE}.
     */
    public static final int MAX_VARIABLES = 65_536;
    /** The stream seen last: most subscribers take one, so no lookup per event. */
    private long lastVariable;
    private Stream lastStream;

    /** One variable's duplicate filter and counts. */
    private static final class Stream {
        final SequenceWindow window = new SequenceWindow();
        final StreamCounters counters = new StreamCounters();
    }
    private volatile boolean closing;

    private Subscriber(DatagramChannel channel, StatusEventListener listener, Clock clock) {
        this.channel = channel;
        this.listener = listener;
        this.clock = clock;
        this.receiver = new Thread(this::receiveLoop, "gridstat-subscriber-" + localAddress().getPort());
        this.receiver.setDaemon(true);
    }

    /** Binds {@code endpoint} and starts delivering to {@code listener}, timestamped by the system clock. */
    public static Subscriber open(InetSocketAddress endpoint, StatusEventListener listener) {
        return open(endpoint, listener, SystemClock.INSTANCE);
    }

    public static Subscriber open(InetSocketAddress endpoint, StatusEventListener listener, Clock clock) {
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(listener, "listener");
        DatagramChannel ch = null;
        try {
            ch = DatagramChannel.open();
            ch.setOption(StandardSocketOptions.SO_RCVBUF, DEFAULT_SOCKET_BUFFER);
            ch.bind(endpoint);
            Subscriber s = new Subscriber(ch, listener, clock);
            s.receiver.start();
            return s;
        } catch (IOException e) {
            closeQuietly(ch);
            throw new UncheckedIOException("cannot bind subscriber endpoint " + endpoint + ": " + e.getMessage(), e);
        }
    }

    private void receiveLoop() {
        ByteBuffer buffer = ByteBuffer.allocateDirect(RECEIVE_BUFFER);
        StatusEventDecoder decoder = new StatusEventDecoder();
        DatagramReader reader = new DatagramReader();
        ReceivedEvent event = new ReceivedEvent(decoder);
        while (!closing) {
            buffer.clear();
            try {
                if (channel.receive(buffer) == null) {
                    continue;
                }
            } catch (ClosedChannelException e) {
                break;
            } catch (IOException e) {
                LOG.log(System.Logger.Level.WARNING, "receive failed on " + localAddress(), e);
                continue;
            }
            long now = clock.nanos();
            int length = buffer.position();
            RejectReason framing = reader.open(buffer, 0, length);
            if (framing != RejectReason.NONE) {
                rejected.incrementAndGet(framing.ordinal());
                continue;
            }
            while (reader.next()) {
                deliver(buffer, decoder, reader.eventOffset(), reader.eventLength(), event, now);
            }
        }
    }

    /** Validates one event of a datagram and hands it to the listener if it is its sample's first copy. */
    private void deliver(ByteBuffer buffer, StatusEventDecoder decoder, int offset, int length, ReceivedEvent event,
                         long now) {
        RejectReason reason = decoder.wrap(buffer, offset, length);
        if (reason != RejectReason.NONE) {
            rejected.incrementAndGet(reason.ordinal());
            return;
        }
        Stream stream = stream(decoder.variableId());
        if (stream == null) {
            rejected.incrementAndGet(RejectReason.UNKNOWN_VARIABLE.ordinal());
            return;
        }
        if (!firstCopy(stream, decoder.sequence(), decoder.sourceTimeNanos())) {
            return;
        }
        event.receivedAt(now);
        long latency = now - decoder.sourceTimeNanos();
        stream.counters.delivered(latency);
        try {
            listener.onEvent(event);
            stream.counters.listenerTook();
        } catch (RuntimeException e) {
            if (listenerErrors.getAndIncrement() == 0) {
                LOG.log(System.Logger.Level.ERROR, "subscriber listener threw; counting further failures", e);
            }
        }
    }

    private Stream stream(long variable) {
        Stream s = lastStream;
        if (s == null || variable != lastVariable) {
            s = streams.get(variable);
            if (s == null) {
                if (streams.size() >= MAX_VARIABLES) {
                    return null;
                }
                s = new Stream();
                streams.put(variable, s);
            }
            lastVariable = variable;
            lastStream = s;
        }
        return s;
    }

    /** Whether this copy is the first of its (variable, sequence); counts the others. Receive thread only. */
    private boolean firstCopy(Stream s, long sequence, long sourceTime) {
        long gapsBefore = s.window.gaps();
        SequenceWindow.Verdict v = s.window.accept(sequence, sourceTime);
        long gaps = s.window.gaps() - gapsBefore;
        s.counters.gaps(gaps);
        switch (v) {
            case DUPLICATE:
                s.counters.duplicate();
                return false;
            case TOO_LATE:
                s.counters.tooLate();
                return false;
            default:
                return true;
        }
    }

    /** Delivery counts and latency so far, over every variable (summed from the variables' counts). */
    public SubscriberStatistics statistics() {
        List<StreamCounters> each = new java.util.ArrayList<>();
        streams.values().forEach(st -> each.add(st.counters));
        return StreamCounters.total(each);
    }

    /**
     * One variable's counts and latency: the statistics of a subscription to it. All zero if none
     * of its events arrived yet.
     */
    public SubscriberStatistics statistics(org.gridstat.core.model.VariableId variable) {
        Stream s = streams.get(variable.value());
        return s == null ? new StreamCounters().snapshot() : s.counters.snapshot();
    }

    /** The bound endpoint (with the actual port if port 0 was asked for). */
    public InetSocketAddress localAddress() {
        try {
            return (InetSocketAddress) channel.getLocalAddress();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Events handed to the listener. */
    public long delivered() {
        return statistics().delivered();
    }

    /** Events dropped for {@code reason} (a damaged batch counts once, as {@code BATCH_DAMAGED}). */
    public long rejected(RejectReason reason) {
        return rejected.get(reason.ordinal());
    }

    /** Exceptions the listener threw. */
    public long listenerErrors() {
        return listenerErrors.get();
    }

    /** Stops the receive thread and closes the socket; waits up to a second for the thread. */
    @Override
    public void close() {
        closing = true;
        closeQuietly(channel);
        try {
            receiver.join(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void closeQuietly(DatagramChannel ch) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                LOG.log(System.Logger.Level.DEBUG, "closing subscriber socket", e);
            }
        }
    }
}
