package org.gridstat.gui.view;

import java.util.Comparator;
import java.util.function.Function;
import javafx.beans.property.ReadOnlyObjectWrapper;
import javafx.scene.control.TableCell;
import javafx.scene.control.TableColumn;

/** Table columns that sort by the value and show it written for the operator ("—" where there is none). */
final class Columns {
    private Columns() {
    }

    static <R, T extends Comparable<? super T>> TableColumn<R, T> of(String title, Function<R, T> value,
                                                                     Function<T, String> text) {
        return of(title, value, text, null);
    }

    /** With {@code style} giving a value's style class (a state's colour), or null for none. */
    static <R, T extends Comparable<? super T>> TableColumn<R, T> of(String title, Function<R, T> value,
                                                                     Function<T, String> text,
                                                                     Function<T, String> style) {
        TableColumn<R, T> c = new TableColumn<>(title);
        c.setCellValueFactory(d -> new ReadOnlyObjectWrapper<>(value.apply(d.getValue())));
        c.setComparator(Comparator.nullsFirst(Comparator.naturalOrder()));
        c.setCellFactory(col -> new TableCell<>() {
            private String styled;

            @Override
            protected void updateItem(T item, boolean empty) {
                super.updateItem(item, empty);
                if (styled != null) {
                    getStyleClass().remove(styled);
                    styled = null;
                }
                if (empty) {
                    setText(null);
                    return;
                }
                setText(item == null ? Shown.NONE : text.apply(item));
                if (item != null && style != null) {
                    styled = style.apply(item);
                    if (styled != null) {
                        getStyleClass().add(styled);
                    }
                }
            }
        });
        return c;
    }

    static <R> TableColumn<R, String> text(String title, Function<R, String> value) {
        return of(title, value, s -> s);
    }

    /** The column at a width that shows its values whole (the resize policy does not look at them). */
    static <R, T> TableColumn<R, T> wide(TableColumn<R, T> c, double width) {
        c.setPrefWidth(width);
        return c;
    }
}
