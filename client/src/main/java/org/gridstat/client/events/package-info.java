/**
 * A broker's live operator view pushed over its management API's event stream
 * ({@code GET /api/v1/events}, {@code docs/management-api.md}): {@link BrokerEvents} reads it,
 * follows the leader and reconnects, and hands each event to a listener.
 *
 * <pre>{@code
 * BrokerEvents events = BrokerEvents.open(URI.create("http://127.0.0.1:8470"),
 *         (name, json) -> Platform.runLater(() -> view.replace(name, json)),
 *         (state, broker, detail) -> Platform.runLater(() -> statusBar.show(state, broker, detail)));
 * ...
 * events.close();
 * }</pre>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.0.0")
package org.gridstat.client.events;
