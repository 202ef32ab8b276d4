package org.gridstat.gateway.mapping;

/**
 * What a {@link DescriptionAssembler} did with one description part. Every outcome is counted;
 * nothing is thrown. Only {@link #COMPLETE} yields a description.
 */
public enum PartOutcome {
    STORED(false, "a new part of the description being gathered, held"),
    COMPLETE(false, "the last missing part: the description is decoded and available"),
    DUPLICATE(false, "a part already held, with the same bytes: ignored"),
    REPEAT(false, "a part of the description last completed: ignored"),
    STALE(false, "a part of another description whose CFGCNT is not newer than the current one's: dropped"),
    TOO_SHORT(true, "fewer bytes than the 10-byte part header"),
    TOO_LONG(true, "more bytes than the assembler's payload limit"),
    UNKNOWN_KIND(true, "the first byte is not 2, the kind of a description part"),
    BAD_INDEX(true, "a part count of 0, or an index not below the count"),
    INCONSISTENT(true, "a part count or CFGCNT other than the other parts with the same CRC declare"),
    BAD_PART_LENGTH(true, "no data, a part before the last not as long as the others, or a last part longer than they are"),
    CONFLICTING_PART(true, "a part already held, with other bytes: the first copy is kept"),
    BAD_CRC(true, "all parts in, but the bytes do not have the CRC the parts name: gathered afresh"),
    NOT_A_DESCRIPTION(true, "all parts in and the CRC matches, but the bytes are not a CFG-2 of one PMU with the parts' CFGCNT");

    private final boolean rejected;
    private final String description;

    PartOutcome(boolean rejected, String description) {
        this.rejected = rejected;
        this.description = description;
    }

    /** Whether the part (or, for the last two, the whole description) was refused as malformed. */
    public boolean rejected() {
        return rejected;
    }

    public String description() {
        return description;
    }
}
