package org.gridstat.gui.view;

import java.util.function.DoubleFunction;
import javafx.geometry.VPos;
import javafx.scene.canvas.Canvas;
import javafx.scene.canvas.GraphicsContext;
import javafx.scene.layout.Pane;
import javafx.scene.paint.Color;
import javafx.scene.text.Font;
import javafx.scene.text.TextAlignment;
import org.gridstat.gui.model.SeriesHistory;

/**
 * A time series over the last five minutes drawn on a canvas: a few hundred points a chart at most,
 * redrawn whole on a pulse, never a scene-graph node per point (what makes the built-in charts
 * stall with live data).
 */
public final class LiveChart {
    private final Pane pane = new Pane();
    private final Canvas canvas = new Canvas(600, 160);
    private final String title;
    private final DoubleFunction<String> unit;
    private SeriesHistory.Points points = new SeriesHistory.Points(new long[0], new double[0]);
    private long nowMillis;
    private String empty = "select a flow or a link";

    public LiveChart(String id, String title, DoubleFunction<String> unit) {
        this.title = title;
        this.unit = unit;
        canvas.setId(id);
        pane.getChildren().add(canvas);
        pane.setMinHeight(120);
        canvas.widthProperty().bind(pane.widthProperty());
        canvas.heightProperty().bind(pane.heightProperty());
        canvas.widthProperty().addListener(o -> draw());
        canvas.heightProperty().addListener(o -> draw());
    }

    public Pane node() {
        return pane;
    }

    public void show(SeriesHistory.Points p, long nowMillis, String whenEmpty) {
        this.points = p;
        this.nowMillis = nowMillis;
        this.empty = whenEmpty;
        draw();
    }

    private void draw() {
        GraphicsContext g = canvas.getGraphicsContext2D();
        double w = canvas.getWidth();
        double h = canvas.getHeight();
        g.setFill(Color.WHITE);
        g.fillRect(0, 0, w, h);
        double left = 90;
        double right = 16;
        double top = 30;
        double bottom = 24;
        g.setStroke(Color.web("#9ca3af"));
        g.setLineWidth(1);
        g.strokeRect(left, top, w - left - right, h - top - bottom);
        int n = points.size();
        String heading = title + (n > 0 ? ": " + unit.apply(points.values()[n - 1]) + " now" : "");
        text(g, heading, left, 14, 15, Color.BLACK, TextAlignment.LEFT);
        text(g, "−5 min", left, h - 10, 12, Color.web("#4b5563"), TextAlignment.LEFT);
        text(g, "now", w - right, h - 10, 12, Color.web("#4b5563"), TextAlignment.RIGHT);
        if (n == 0) {
            text(g, empty, left + (w - left - right) / 2, top + (h - top - bottom) / 2, 14, Color.web("#4b5563"),
                    TextAlignment.CENTER);
            return;
        }
        double max = 0;
        for (double v : points.values()) {
            max = Math.max(max, v);
        }
        max = max <= 0 ? 1 : max * 1.1;
        text(g, unit.apply(max), left - 6, top, 12, Color.web("#4b5563"), TextAlignment.RIGHT);
        text(g, unit.apply(0), left - 6, h - bottom, 12, Color.web("#4b5563"), TextAlignment.RIGHT);
        double from = nowMillis - SeriesHistory.WINDOW_MILLIS;
        double xs = (w - left - right) / SeriesHistory.WINDOW_MILLIS;
        double ys = (h - top - bottom) / max;
        g.setStroke(Color.web("#1d4ed8"));
        g.setLineWidth(2);
        g.beginPath();
        for (int i = 0; i < n; i++) {
            double x = left + Math.max(0, points.timesMillis()[i] - from) * xs;
            double y = h - bottom - points.values()[i] * ys;
            if (i == 0) {
                g.moveTo(x, y);
            } else {
                g.lineTo(x, y);
            }
        }
        g.stroke();
        if (n == 1) { // one report so far: a point, not yet a line
            double x = left + Math.max(0, points.timesMillis()[0] - from) * xs;
            double y = h - bottom - points.values()[0] * ys;
            g.setFill(Color.web("#1d4ed8"));
            g.fillOval(x - 4, y - 4, 8, 8);
        }
    }

    private static void text(GraphicsContext g, String s, double x, double y, double size, Color c, TextAlignment a) {
        g.setFont(Font.font("DejaVu Sans", size));
        g.setFill(c);
        g.setTextAlign(a);
        g.setTextBaseline(VPos.CENTER);
        g.fillText(s, x, y);
    }
}
