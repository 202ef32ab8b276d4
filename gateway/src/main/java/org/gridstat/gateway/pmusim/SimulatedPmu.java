package org.gridstat.gateway.pmusim;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.gridstat.gateway.c37118.config.DataFormat;
import org.gridstat.gateway.c37118.config.NominalFrequency;
import org.gridstat.gateway.c37118.frame.ChannelName;

/**
 * One simulated PMU. Phasors go three voltages then three currents (VA, VB, VC, IA, IB, IC, then
 * VA2 ... for more); analogs are ANALOG1 ...; each digital word carries 16 breaker states.
 *
 * @param station the station name, at most 16 ASCII characters (the CFG-2 field)
 * @param idCode the PMU's data source IDCODE
 * @param format number formats and phasor coordinates
 */
public record SimulatedPmu(String station, int idCode, DataFormat format, int phasors, int analogs, int digitals,
                           NominalFrequency nominal) {
    public SimulatedPmu {
        Objects.requireNonNull(station, "station");
        Objects.requireNonNull(format, "format");
        Objects.requireNonNull(nominal, "nominal");
        if (station.length() > ChannelName.FIXED_LENGTH || !StandardCharsets.US_ASCII.newEncoder().canEncode(station)) {
            throw new IllegalArgumentException("a station name is at most 16 ASCII characters: " + station);
        }
        if (idCode < 0 || idCode > 0xFFFF) {
            throw new IllegalArgumentException("IDCODE is 16 bits: " + idCode);
        }
        if (phasors < 0 || analogs < 0 || digitals < 0 || phasors > 0xFFFF || analogs > 0xFFFF || digitals > 0xFFFF) {
            throw new IllegalArgumentException("channel counts are 0 to 65535: " + phasors + ", " + analogs + ", " + digitals);
        }
    }
}
