package org.gridstat.statusrouter.spi;

/** A router's open congestion-notice channels; closed when its data plane stops or restarts. */
public interface NoticeChannels extends AutoCloseable {
    @Override
    void close();
}
