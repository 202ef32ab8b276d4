package org.gridstat.gui.view;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.FontWeight;
import javafx.scene.text.TextAlignment;
import org.gridstat.gui.feed.Resource;
import org.gridstat.gui.model.AlarmLatch;
import org.gridstat.gui.model.ConsoleSnapshot;
import org.gridstat.gui.model.LinkLoad;
import org.gridstat.gui.model.NetworkTopology;
import org.gridstat.gui.model.RouterSession;

/**
 * The network drawn on a canvas: routers (connected or not, in colour and words, with the count
 * of their latched alarms) and each direction of each link as its own line, coloured by how much
 * of the link its flows use, labelled with each class's use of the link.
 */
public final class TopologyView implements PulseView {
    static final Color GOOD = Color.web("#1b7f3b");
    static final Color WARN = Color.web("#b36b00");
    static final Color BAD = Color.web("#b3261e");
    static final Color IDLE = Color.web("#6b7280");
    private static final double RADIUS = 30;

    private final Pane pane = new Pane();
    private final Canvas canvas = new Canvas(800, 500);
    private final AlarmLatch alarms;
    private ConsoleSnapshot last;

    public TopologyView(AlarmLatch alarms) {
        this.alarms = alarms;
        canvas.setId("topologyCanvas");
        pane.getChildren().add(canvas);
        pane.setMinSize(300, 200);
        canvas.widthProperty().bind(pane.widthProperty());
        canvas.heightProperty().bind(pane.heightProperty());
        canvas.widthProperty().addListener(o -> draw());
        canvas.heightProperty().addListener(o -> draw());
    }

    public Pane node() {
        return pane;
    }

    /** Whether the drawing says what it shows may not be current: not live, or the topology not refreshed (for tests). */
    public boolean marksStale() {
        return last != null && (!last.live() || last.topology() != null && last.staleness(Resource.TOPOLOGY) != null);
    }

    @Override
    public void show(ConsoleSnapshot s, boolean changed) {
        if (changed || last == null) {
            last = s;
            draw();
        }
    }

    private void draw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, w, h);
        if (last == null || last.topology() == null) {
            text(g, "waiting for the broker's topology…", w / 2, h / 2, 18, Color.BLACK, TextAlignment.CENTER);
            return;
        }
        NetworkTopology t = last.topology().value();
        Map<String, TopologyLayout.Point> layout = TopologyLayout.of(t);
        double top = 40;
        double bottom = 70;
        Map<String, double[]> at = new HashMap<>();
        layout.forEach((r, p) -> at.put(r, new double[] {40 + p.x() * (w - 80), top + p.y() * (h - top - bottom)}));
        for (NetworkTopology.Link l : t.links()) {
            double[] a = at.get(l.from());
            double[] b = at.get(l.to());
            if (a != null && b != null) {
                drawLink(g, LinkLoad.of(l, last.flows()), a, b);
            }
        }
        Map<String, RouterSession> sessions = new HashMap<>();
        if (last.routers() != null) {
            last.routers().value().forEach(r -> sessions.put(r.id(), r));
        }
        for (NetworkTopology.Router r : t.routers()) {
            double[] p = at.get(r.id());
            if (p != null) {
                drawRouter(g, r.id(), sessions.get(r.id()), alarms.latchedAt(r.id()), p[0], p[1]);
            }
        }
        if (!last.live()) {
            text(g, "NOT LIVE: the last state the broker gave (" + Shown.age(last.dataAgeMillis()) + " old)", 12, 18, 16,
                    WARN, TextAlignment.LEFT);
        } else if (last.staleness(Resource.TOPOLOGY) != null) {
            text(g, "the topology as last read, " + Shown.age(last.takenAtMillis() - last.topology().atMillis())
                    + " ago (" + last.staleness(Resource.TOPOLOGY) + ")", 12, 18, 16, WARN, TextAlignment.LEFT);
        }
        text(g, "line colour: the link's use by its flows (green below 50 %, amber below 80 %, red above);"
                + " labels: each class's share of the link (HRT · LRT · BE)", 12, h - 40, 13, Color.BLACK, TextAlignment.LEFT);
        text(g, "routers: green connected to the broker, red not; ⚠ n: latched alarms at the router (Alarms view, Ctrl+5)",
                12, h - 20, 13, Color.BLACK, TextAlignment.LEFT);
    }

    private static void drawLink(GraphicsContext g, LinkLoad load, double[] a, double[] b) {
        double dx = b[0] - a[0];
        double dy = b[1] - a[1];
        double len = Math.hypot(dx, dy);
        if (len < 1) {
            return;
        }
        // each direction on its own side of the centre line, so a->b and b->a are two lines
        double nx = -dy / len * 7;
        double ny = dx / len * 7;
        double u = load.utilisation();
        Color c = u >= 0.8 ? BAD : u >= 0.5 ? WARN : u > 0 ? GOOD : IDLE;
        g.setStroke(c);
        g.setLineWidth(2 + Math.min(8, u * 10));
        double x1 = a[0] + dx / len * RADIUS + nx;
        double y1 = a[1] + dy / len * RADIUS + ny;
        double x2 = b[0] - dx / len * RADIUS + nx;
        double y2 = b[1] - dy / len * RADIUS + ny;
        g.strokeLine(x1, y1, x2, y2);
        // an arrow head at the receiving end
        double ax = -dx / len;
        double ay = -dy / len;
        g.setFill(c);
        g.fillPolygon(new double[] {x2, x2 + ax * 12 + ay * 6, x2 + ax * 12 - ay * 6},
                new double[] {y2, y2 + ay * 12 - ax * 6, y2 + ay * 12 + ax * 6}, 3);
        StringBuilder label = new StringBuilder();
        for (String cls : LinkLoad.CLASSES) {
            if (!label.isEmpty()) {
                label.append(" · ");
            }
            label.append(cls).append(' ').append(Shown.percent(load.utilisation(cls)));
        }
        double lx = x1 + (x2 - x1) * 0.5 + nx * 2.2;
        double ly = y1 + (y2 - y1) * 0.5 + ny * 2.2;
        text(g, load.link().from() + "→" + load.link().to() + "  " + label, lx, ly, 13, c.darker(), TextAlignment.CENTER);
    }

    private static void drawRouter(GraphicsContext g, String id, RouterSession session, int latched, double x, double y) {
        Color c = session == null ? IDLE : session.connected() ? GOOD : BAD;
        g.setFill(c);
        g.fillOval(x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS);
        g.setStroke(latched > 0 ? BAD : Color.BLACK);
        g.setLineWidth(latched > 0 ? 4 : 1.5);
        g.strokeOval(x - RADIUS, y - RADIUS, 2 * RADIUS, 2 * RADIUS);
        g.setFont(Font.font("DejaVu Sans", FontWeight.BOLD, 17));
        g.setFill(Color.WHITE);
        g.setTextAlign(TextAlignment.CENTER);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(id, x, y);
        String state = session == null ? "unknown" : session.connected()
                ? session.unacknowledged() > 0 ? "connected, " + session.unacknowledged() + " pending" : "connected"
                : "not connected";
        text(g, state, x, y + RADIUS + 12, 13, c.darker(), TextAlignment.CENTER);
        if (latched > 0) {
            g.setFill(BAD);
            g.fillRoundRect(x + RADIUS - 6, y - RADIUS - 18, 44, 22, 8, 8);
            text(g, "⚠ " + latched, x + RADIUS + 16, y - RADIUS - 7, 14, Color.WHITE, TextAlignment.CENTER);
        }
    }

    private static void text(GraphicsContext g, String s, double x, double y, double size, Color c, TextAlignment align) {
        g.setFont(Font.font("DejaVu Sans", size));
        g.setFill(c);
        g.setTextAlign(align);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(s, x, y);
    }

    /** The latched alarms marked on a router. */
    public int latchedAt(String router) {
        return alarms.latchedAt(router);
    }

    /** The routers drawn, for tests: each router's id as laid out. */
    List<String> routersDrawn() {
        return last == null || last.topology() == null ? List.of()
                : last.topology().value().routers().stream().map(NetworkTopology.Router::id).toList();
    }
}
