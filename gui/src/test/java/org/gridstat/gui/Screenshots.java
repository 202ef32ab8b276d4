package org.gridstat.gui;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import javafx.scene.image.PixelReader;
import javafx.scene.image.WritableImage;
import javax.imageio.ImageIO;
import org.gridstat.gui.view.ConsoleWindow;
import org.testfx.util.WaitForAsyncUtils;

/** PNG pictures of each of the console's views, as the operator sees them, under target/screenshots. */
final class Screenshots {
    static final Path FOLDER = Path.of("target", "screenshots");
    static final List<String> VIEWS = List.of("topology", "flows", "charts", "devices", "alarms");

    private Screenshots() {
    }

    /** Shows each view in turn and saves it as {@code <prefix>-<view>.png}. */
    static void saveEachView(ConsoleWindow window, String prefix) throws Exception {
        Files.createDirectories(FOLDER);
        int selected = WaitForAsyncUtils.asyncFx(() -> window.tabs().getSelectionModel().getSelectedIndex()).get();
        for (int i = 0; i < VIEWS.size(); i++) {
            int view = i;
            WaitForAsyncUtils.asyncFx(() -> {
                window.showView(view);
                window.pulse().pulseNow();
            }).get();
            WaitForAsyncUtils.waitForFxEvents();
            WritableImage image = WaitForAsyncUtils.asyncFx(() -> window.scene().snapshot(null)).get();
            write(image, FOLDER.resolve(prefix + "-" + VIEWS.get(view) + ".png"));
        }
        WaitForAsyncUtils.asyncFx(() -> window.showView(selected)).get();
    }

    static void write(WritableImage image, Path file) {
        int w = (int) image.getWidth();
        int h = (int) image.getHeight();
        BufferedImage out = new BufferedImage(w, h, BufferedImage.TYPE_INT_ARGB);
        PixelReader r = image.getPixelReader();
        for (int y = 0; y < h; y++) {
            for (int x = 0; x < w; x++) {
                out.setRGB(x, y, r.getArgb(x, y));
            }
        }
        try {
            ImageIO.write(out, "png", file.toFile());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
