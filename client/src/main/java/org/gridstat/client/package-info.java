/**
 * The application developer's API: publish typed status values with source timestamps, and
 * receive them through a listener.
 *
 * <pre>{@code
 * try (Publisher publisher = Publisher.connect(new InetSocketAddress("127.0.0.1", 9470))) {
 *     Publication freq = publisher.publication(VariableId.of(1), ServiceClass.HRT, Duration.ofMillis(50));
 *     freq.publish(60.002, sampleTimeNanos);
 * }
 * try (Subscriber subscriber = Subscriber.open(new InetSocketAddress("127.0.0.1", 9471),
 *         event -> System.out.println(event.variableId() + " = " + event.doubleValue()))) {
 *     ...
 * }
 * }</pre>
 */
@org.osgi.annotation.bundle.Export
@org.osgi.annotation.versioning.Version("1.1.0")
package org.gridstat.client;
