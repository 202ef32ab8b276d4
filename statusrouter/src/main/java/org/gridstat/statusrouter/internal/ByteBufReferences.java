package org.gridstat.statusrouter.internal;

import io.netty.buffer.ByteBuf;
import org.gridstat.core.forward.EventReferences;

/** Pooled buffers are shared between out-links by reference count. */
final class ByteBufReferences implements EventReferences<ByteBuf> {
    static final ByteBufReferences INSTANCE = new ByteBufReferences();

    @Override
    public void retain(ByteBuf event) {
        event.retain();
    }

    @Override
    public void release(ByteBuf event) {
        event.release();
    }
}
