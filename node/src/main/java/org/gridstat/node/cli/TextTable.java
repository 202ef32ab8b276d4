package org.gridstat.node.cli;

import java.util.List;

/** Rows of cells printed as aligned columns, two spaces apart, for terminal tables. */
final class TextTable {
    private TextTable() {
    }

    static String columns(List<List<String>> rows) {
        int[] width = new int[rows.stream().mapToInt(List::size).max().orElse(0)];
        for (List<String> r : rows) {
            for (int i = 0; i < r.size(); i++) {
                width[i] = Math.max(width[i], r.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> r : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < r.size(); i++) {
                line.append(i == 0 ? "" : "  ").append(r.get(i)).append(" ".repeat(width[i] - r.get(i).length()));
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }
}
