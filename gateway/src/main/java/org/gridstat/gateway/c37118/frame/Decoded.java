package org.gridstat.gateway.c37118.frame;

/**
 * A decoded frame, or the reason there is none: decoders answer with this instead of throwing.
 *
 * @param frame the frame, null when rejected
 * @param reject {@link FrameReject#NONE} when {@code frame} is set
 */
public record Decoded<T>(T frame, FrameReject reject) {
    public Decoded {
        if ((frame == null) == (reject == FrameReject.NONE) || reject == null) {
            throw new IllegalArgumentException("a frame or a reason, exactly one");
        }
    }

    public static <T> Decoded<T> of(T frame) {
        return new Decoded<>(frame, FrameReject.NONE);
    }

    public static <T> Decoded<T> rejected(FrameReject reject) {
        return new Decoded<>(null, reject);
    }

    public boolean ok() {
        return frame != null;
    }
}
