package org.gridstat.gui.view;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.gridstat.gui.model.NetworkTopology;

/**
 * Where each router goes on the topology drawing: columns by hops from the first router (by name)
 * of each connected part, so a network drawn left to right reads like its paths; rows within a
 * column in name order. Positions are fractions of the drawing's width and height.
 */
final class TopologyLayout {
    record Point(double x, double y) {
    }

    private TopologyLayout() {
    }

    static Map<String, Point> of(NetworkTopology t) {
        Map<String, List<String>> neighbours = new TreeMap<>();
        t.routers().forEach(r -> neighbours.put(r.id(), new ArrayList<>()));
        for (NetworkTopology.Link l : t.links()) {
            neighbours.computeIfAbsent(l.from(), k -> new ArrayList<>()).add(l.to());
            neighbours.computeIfAbsent(l.to(), k -> new ArrayList<>()).add(l.from());
        }
        Map<String, Integer> depth = new LinkedHashMap<>();
        int offset = 0;
        for (String start : neighbours.keySet()) {
            if (depth.containsKey(start)) {
                continue;
            }
            int deepest = offset;
            Deque<String> queue = new ArrayDeque<>(List.of(start));
            depth.put(start, offset);
            while (!queue.isEmpty()) {
                String r = queue.poll();
                for (String n : neighbours.getOrDefault(r, List.of()).stream().sorted().toList()) {
                    if (!depth.containsKey(n)) {
                        depth.put(n, depth.get(r) + 1);
                        deepest = Math.max(deepest, depth.get(n));
                        queue.add(n);
                    }
                }
            }
            offset = deepest + 1;
        }
        Map<Integer, List<String>> columns = new TreeMap<>();
        depth.forEach((r, d) -> columns.computeIfAbsent(d, k -> new ArrayList<>()).add(r));
        int columnCount = Math.max(1, columns.size());
        Map<String, Point> at = new HashMap<>();
        int c = 0;
        for (List<String> column : columns.values()) {
            column.sort(null);
            for (int i = 0; i < column.size(); i++) {
                at.put(column.get(i), new Point((c + 0.5) / columnCount, (i + 0.5) / column.size()));
            }
            c++;
        }
        return at;
    }
}
