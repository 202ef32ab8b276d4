package org.gridstat.gateway.device;

import java.util.List;
import org.gridstat.gateway.c37118.SampleConfigs;
import org.gridstat.gateway.c37118.config.Config3Frame;
import org.gridstat.gateway.c37118.config.ConfigFrame;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.HeaderFrame;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.FrameType;

/** A served stream whose configuration a test can swap. */
final class TestStream implements ServedStream {
    static final int ID_CODE = 4242;

    volatile ConfigFrame config2;
    volatile Config3Frame config3;
    volatile HeaderFrame header;

    TestStream(ConfigFrame config2) {
        this.config2 = config2;
    }

    /** Two PMUs: integer rectangular at 60 Hz and float polar at 50 Hz. */
    static TestStream twoPmus() {
        return new TestStream(SampleConfigs.config(FrameType.CONFIG_2, 2, ID_CODE, List.of(
                SampleConfigs.pmu(11, DataFormat.of(false, false, false, false), 3, 2, 1, NominalFrequency.HZ_60),
                SampleConfigs.pmu(12, DataFormat.of(true, true, true, true), 2, 1, 2, NominalFrequency.HZ_50)), 30));
    }

    /** One PMU with enough float phasors that each data frame is about 4 kB. */
    static TestStream bigFrames() {
        return new TestStream(SampleConfigs.config(FrameType.CONFIG_2, 2, ID_CODE, List.of(
                SampleConfigs.pmu(13, DataFormat.of(false, true, true, true), 490, 0, 0, NominalFrequency.HZ_60)), 60));
    }

    @Override
    public int idCode() {
        return ID_CODE;
    }

    @Override
    public ConfigFrame config1() {
        ConfigFrame c = config2;
        return new ConfigFrame(FrameType.CONFIG_1, c.version(), c.idCode(), c.soc(), c.fracSec(), c.timeBase(), c.pmus(),
                c.dataRate());
    }

    @Override
    public ConfigFrame config2() {
        return config2;
    }

    @Override
    public Config3Frame config3() {
        return config3;
    }

    @Override
    public HeaderFrame header() {
        return header;
    }
}
