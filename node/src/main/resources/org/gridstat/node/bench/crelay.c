/*
 * crelay: the per-datagram ceiling of this machine, for `gridstat bench`. It does nothing but
 * move datagrams from its UDP port to one destination on loopback: recvmmsg a batch, sendmmsg it
 * on, no validation, no copy, no scheduling. The bench compiles it with gcc at run time.
 *
 * usage: crelay PORT DEST_PORT BATCH MAX_SECONDS
 *
 * Prints "crelay ready port=P dest=D batch=B" once bound, and on SIGTERM
 * "crelay stopped received=N sent=N errors=N batches=N". It never outlives the bench: it exits
 * when its standard input closes (the JVM that started it is gone, however it ended) and after
 * MAX_SECONDS in any case (SIGALRM's default action).
 *
 * Keep this file free of Maven filter tokens (dollar-brace and the at sign): it is a filtered resource.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#define MAX_BATCH 1024
#define FRAME_MAX 65536 /* the largest UDP datagram: batches of events too */
#define SOCKET_BUFFER (8 << 20)

static volatile sig_atomic_t stopping;

static void on_term(int sig) {
    (void) sig;
    stopping = 1;
}

/*
 * The parent's end of our stdin closes when the parent dies, even by SIGKILL, and also when the JDK
 * stops us (Process.destroy sends SIGTERM, then closes the pipe): stop as for SIGTERM, so the counts
 * are still printed, and leave for certain if the main loop cannot.
 */
static void *watch_stdin(void *unused) {
    char buf[64];
    (void) unused;
    errno = 0;
    while (read(STDIN_FILENO, buf, sizeof buf) > 0 || errno == EINTR) {
        errno = 0;
    }
    stopping = 1;
    sleep(2);
    _exit(3);
    return NULL;
}

static int udp_socket(void) {
    int fd = socket(AF_INET, SOCK_DGRAM, 0);
    int size = SOCKET_BUFFER;
    if (fd < 0) {
        perror("crelay: socket");
        exit(1);
    }
    /* As large as the router's and the Netty relay's; the kernel caps both alike at rmem_max/wmem_max. */
    setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
    setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &size, sizeof size);
    return fd;
}

static struct sockaddr_in loopback(int port) {
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short) port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
}

int main(int argc, char **argv) {
    static struct mmsghdr msgs[MAX_BATCH];
    static struct iovec iovs[MAX_BATCH];
    static char frames[MAX_BATCH][FRAME_MAX];
    unsigned long long received = 0, sent = 0, errors = 0, batches = 0;
    int port, dest_port, batch, max_seconds, in, out, i;
    struct sockaddr_in bind_to, dest;
    struct sigaction term;
    sigset_t stops;
    struct timeval poll_stop = {0, 100000};
    pthread_t watcher;

    if (argc != 5) {
        fprintf(stderr, "usage: crelay PORT DEST_PORT BATCH MAX_SECONDS\n");
        return 2;
    }
    port = atoi(argv[1]);
    dest_port = atoi(argv[2]);
    batch = atoi(argv[3]);
    max_seconds = atoi(argv[4]);
    if (port <= 0 || port > 65535 || dest_port <= 0 || dest_port > 65535 || batch < 1 || batch > MAX_BATCH
            || max_seconds < 1) {
        fprintf(stderr, "crelay: bad arguments\n");
        return 2;
    }

    memset(&term, 0, sizeof term);
    term.sa_handler = on_term; /* no SA_RESTART: a blocked recvmmsg returns EINTR */
    sigaction(SIGTERM, &term, NULL);
    sigaction(SIGINT, &term, NULL);
    alarm((unsigned) max_seconds);
    /* The watcher starts with SIGTERM blocked, so the signal interrupts the main thread's recvmmsg. */
    sigemptyset(&stops);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stops, NULL);
    if (pthread_create(&watcher, NULL, watch_stdin, NULL) != 0) {
        fprintf(stderr, "crelay: cannot watch stdin\n");
        return 1;
    }
    pthread_sigmask(SIG_UNBLOCK, &stops, NULL);

    in = udp_socket();
    bind_to = loopback(port);
    if (bind(in, (struct sockaddr *) &bind_to, sizeof bind_to) != 0) {
        perror("crelay: bind");
        return 1;
    }
    /* Wakes the loop now and then, so a SIGTERM that lands between two calls is still seen. */
    setsockopt(in, SOL_SOCKET, SO_RCVTIMEO, &poll_stop, sizeof poll_stop);
    /* A connected second socket sends, so the batch needs no per-message address. */
    out = udp_socket();
    dest = loopback(dest_port);
    if (connect(out, (struct sockaddr *) &dest, sizeof dest) != 0) {
        perror("crelay: connect");
        return 1;
    }

    for (i = 0; i < batch; i++) {
        iovs[i].iov_base = frames[i];
        msgs[i].msg_hdr.msg_iov = &iovs[i];
        msgs[i].msg_hdr.msg_iovlen = 1;
    }
    printf("crelay ready port=%d dest=%d batch=%d\n", port, dest_port, batch);
    fflush(stdout);

    while (!stopping) {
        int n, done = 0;
        for (i = 0; i < batch; i++) {
            iovs[i].iov_len = FRAME_MAX;
        }
        n = recvmmsg(in, msgs, (unsigned) batch, MSG_WAITFORONE, NULL);
        if (n < 0) {
            if (errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK) {
                continue;
            }
            perror("crelay: recvmmsg");
            return 1;
        }
        received += (unsigned long long) n;
        batches++;
        for (i = 0; i < n; i++) {
            iovs[i].iov_len = msgs[i].msg_len;
        }
        while (done < n) {
            int s = sendmmsg(out, msgs + done, (unsigned) (n - done), 0);
            if (s < 0) {
                if (errno == EINTR) {
                    continue;
                }
                /* The sink's port refused (ECONNREFUSED) or buffers ran out: drop this one, as UDP would. */
                errors++;
                s = 1;
            } else {
                sent += (unsigned long long) s;
            }
            done += s;
        }
    }
    printf("crelay stopped received=%llu sent=%llu errors=%llu batches=%llu\n", received, sent, errors, batches);
    fflush(stdout);
    return 0;
}
