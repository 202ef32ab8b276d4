package org.gridstat.gateway.device;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;
import org.gridstat.gateway.c37118.command.CommandFrame;
import org.gridstat.gateway.c37118.command.CommandFrameCodec;
import org.gridstat.gateway.c37118.frame.Decoded;
import org.gridstat.gateway.c37118.frame.FrameReject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Obeys command frames the same way whichever transport they came by. A frame that is not a
 * valid command for this stream is counted and ignored, with a rate-limited WARN; the peer keeps
 * its connection, since a PDC that sends one bad frame usually sends good ones next.
 */
final class CommandHandler {
    private static final Logger LOG = LoggerFactory.getLogger(CommandHandler.class);

    private final ServedStream stream;
    private final StreamFrames frames;
    private final CounterSet counters;

    CommandHandler(ServedStream stream, StreamFrames frames, CounterSet counters) {
        this.stream = stream;
        this.frames = frames;
        this.counters = counters;
    }

    /** The command in the frame if this stream should obey it; null (counted and logged) if not. */
    CommandFrame accept(ByteBuffer b, int offset, int length, String peer, RateLimitedWarning warnings) {
        Decoded<CommandFrame> d = CommandFrameCodec.decode(b, offset, length);
        if (!d.ok()) {
            if (d.reject() == FrameReject.WRONG_FRAME_TYPE) {
                counters.framesIgnored.increment();
                warnings.warn(LOG, peer, "ignored a frame that is not a command");
            } else {
                counters.refusedBadFrame.increment();
                warnings.warn(LOG, peer, "refused a command frame: " + d.reject().description());
            }
            return null;
        }
        CommandFrame c = d.frame();
        int idCode = stream.idCode() & 0xFFFF;
        if (c.idCode() != idCode) {
            counters.refusedWrongIdCode.increment();
            warnings.warn(LOG, peer, "refused a command for IDCODE " + c.idCode() + ": this stream is " + idCode);
            return null;
        }
        return c;
    }

    void execute(CommandFrame c, CommandPeer peer) {
        switch (c.command()) {
            case CommandFrame.DATA_OFF -> {
                counters.dataOff.increment();
                peer.data(false);
            }
            case CommandFrame.DATA_ON -> {
                counters.dataOn.increment();
                peer.data(true);
            }
            case CommandFrame.SEND_HEADER -> {
                counters.sendHeader.increment();
                answer(peer, frames.header(), counters.headerFramesSent, "header");
            }
            case CommandFrame.SEND_CONFIG_1 -> {
                counters.sendConfig1.increment();
                answer(peer, frames.config1(), counters.configFramesSent, "CFG-1");
            }
            case CommandFrame.SEND_CONFIG_2 -> {
                counters.sendConfig2.increment();
                answer(peer, frames.config2(), counters.configFramesSent, "CFG-2");
            }
            case CommandFrame.SEND_CONFIG_3 -> {
                counters.sendConfig3.increment();
                List<byte[]> fragments = frames.config3(peer.maxFrameSize());
                if (fragments == null) {
                    peer.warnings().warn(LOG, peer.describe(), "asked for CFG-3 but the stream has no configuration yet");
                    return;
                }
                for (byte[] f : fragments) {
                    answer(peer, f, counters.configFramesSent, "CFG-3");
                }
            }
            case CommandFrame.EXTENDED_FRAME -> counters.extendedFrames.increment();
            default -> {
                counters.unknownCommands.increment();
                peer.warnings().warn(LOG, peer.describe(), "ignored command code " + c.command());
            }
        }
    }

    private static void answer(CommandPeer peer, byte[] frame, LongAdder sent, String what) {
        if (frame == null) {
            peer.warnings().warn(LOG, peer.describe(), "asked for the " + what + " but the stream has no configuration yet");
            return;
        }
        peer.answer(frame, sent);
    }
}
