package org.gridstat.rpc.transport;

/** What a 2WoPS frame carries. */
public enum FrameKind {
    /** A message of the layer above. */
    DATA(1),
    /** The acknowledgement of one try of a DATA message. */
    ACK(2);

    final int code;

    FrameKind(int code) {
        this.code = code;
    }

    static FrameKind of(int code) {
        return switch (code) {
            case 1 -> DATA;
            case 2 -> ACK;
            default -> null;
        };
    }
}
