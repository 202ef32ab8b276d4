package org.gridstat.rpc.server;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The request log's file after crashes and corruption: what it restores, and what it refuses to trust. */
class FileRequestLogTest {
    private static final long NOW = 1_767_225_600_000_000_000L;
    private static final long LATER = NOW + 60_000_000_000L;

    @TempDir
    Path dir;
    /** Where the second request's accepted record starts in the file. */
    private long second;

    /** Two requests accepted and answered, a third accepted: the file as a crash leaves it. */
    private Path threeRequests() throws IOException {
        Path file = dir.resolve("requests.log");
        FileRequestLog log = FileRequestLog.open(file, () -> NOW);
        log.restore(NOW);
        log.accepted(77, 1, LATER);
        log.answered(77, 1, new byte[] {1, 2, 3});
        second = Files.size(file);
        log.accepted(77, 2, LATER);
        log.answered(77, 2, new byte[] {4, 5, 6});
        log.accepted(77, 3, LATER);
        log.close();
        return file;
    }

    private static List<Long> ids(List<RequestLog.Entry> entries) {
        return entries.stream().map(RequestLog.Entry::requestId).toList();
    }

    @Test
    void everyRecordReadsBack() throws IOException {
        Path file = threeRequests();
        List<RequestLog.Entry> back = FileRequestLog.open(file, () -> NOW).restore(NOW);
        assertEquals(List.of(1L, 2L, 3L), ids(back));
        assertArrayEquals(new byte[] {4, 5, 6}, back.get(1).reply());
        assertNull(back.get(2).reply());
    }

    @Test
    void aRecordCutShortByACrashIsIgnoredAndWhatCameBeforeStands() throws IOException {
        Path file = threeRequests();
        byte[] b = Files.readAllBytes(file);
        for (int cut = 1; cut < 30; cut++) { // the last record, accepted(77, 3), cut anywhere
            Files.write(file, java.util.Arrays.copyOf(b, b.length - cut));
            List<RequestLog.Entry> back = FileRequestLog.readBack(file);
            assertEquals(List.of(1L, 2L), ids(back), "cut " + cut);
        }
        byte[] torn = b.clone();
        torn[b.length - 10] ^= 1; // the last record at its full length, its bytes not all written
        Files.write(file, torn);
        assertEquals(List.of(1L, 2L), ids(FileRequestLog.readBack(file)));
        byte[] zeros = java.util.Arrays.copyOf(b, b.length + 40); // a tail the file system left zeroed
        Files.write(file, zeros);
        assertEquals(List.of(1L, 2L, 3L), ids(FileRequestLog.readBack(file)));
    }

    @Test
    void aDamagedRecordBeforeTheEndStopsTheOpeningRatherThanForgetWhatFollows() throws IOException {
        Path file = threeRequests();
        byte[] good = Files.readAllBytes(file);
        int s = (int) second;
        for (int at : new int[] {s, s + 1, s + 12, s + 20}) { // its kind, session, id, expiry
            byte[] bad = good.clone();
            bad[at] ^= 0x40;
            Files.write(file, bad);
            IOException e = assertThrows(IOException.class, () -> FileRequestLog.open(file, () -> NOW),
                    "a flipped bit at byte " + at + " must not silently drop or alter requests");
            assertTrue(e.getMessage().contains("corrupt"), e.getMessage());
        }
    }

    @Test
    void aRequestTheLogFailedToWriteIsNotHeldAgainstItsRetry() throws IOException {
        Path file = dir.resolve("gone").resolve("requests.log");
        FileRequestLog log = FileRequestLog.open(file, () -> NOW);
        log.restore(NOW);
        log.close();
        Files.delete(file);
        Files.delete(file.getParent()); // the next append cannot write the file
        assertThrows(IOException.class, () -> log.accepted(77, 1, LATER));
        Files.createDirectories(file.getParent());
        log.accepted(77, 1, LATER); // refused, it never ran: its retry may be accepted
        log.close();
        assertEquals(List.of(1L), ids(FileRequestLog.readBack(file)));
    }
}
