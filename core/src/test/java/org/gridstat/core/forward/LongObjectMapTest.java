package org.gridstat.core.forward;

import static org.junit.jupiter.api.Assertions.*;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

class LongObjectMapTest {
    @Test
    void behavesLikeAHashMapThroughRandomPutsAndRemoves() {
        LongObjectMap<String> map = new LongObjectMap<>(4);
        Map<Long, String> model = new HashMap<>();
        Random r = new Random(3);
        for (int i = 0; i < 200_000; i++) {
            long key = r.nextInt(2_000) * 1024L; // clustered keys to force collisions
            if (r.nextInt(3) == 0) {
                map.remove(key);
                model.remove(key);
            } else {
                map.put(key, "v" + i);
                model.put(key, "v" + i);
            }
            if (i % 1000 == 0) {
                for (Map.Entry<Long, String> e : model.entrySet()) {
                    assertEquals(e.getValue(), map.get(e.getKey()));
                }
                assertEquals(model.size(), map.size());
            }
        }
        for (long k = 0; k < 2_000 * 1024L; k += 1024) {
            assertEquals(model.get(k), map.get(k), "key " + k);
        }
    }
}
