/*
 * HTB, pfifo and u32 over raw rtnetlink: the requests tc(8) would send, on one NETLINK_ROUTE socket.
 * No JNI here; gridstat_htb_jni.c wraps these for Java.
 *
 * Handles: the HTB qdisc is always 1:, so a class is named by its minor (1:minor). Every function
 * that can fail returns -1 and fills a struct tc_error; nothing here allocates beyond one receive
 * buffer per request.
 */
#ifndef GRIDSTAT_TC_NETLINK_H
#define GRIDSTAT_TC_NETLINK_H

#include <stddef.h>
#include <stdint.h>

#define TC_DETAIL_SIZE 256

/* Why a request failed: a positive errno and the kernel's extended-ack message (or this library's
 * own explanation), empty when there is none. */
struct tc_error {
    int code;
    char detail[TC_DETAIL_SIZE];
};

struct htb_rates {
    uint64_t rate;    /* bytes per second */
    uint64_t ceil;    /* bytes per second */
    uint32_t burst;   /* bytes */
    uint32_t cburst;  /* bytes */
    uint32_t prio;
    uint32_t quantum; /* bytes */
};

/* One HTB class of qdisc 1: as the kernel reports it. */
struct htb_class_stats {
    uint32_t minor;
    uint32_t parent_minor; /* 0: directly under the qdisc */
    uint32_t leaf;
    uint32_t prio;
    uint64_t rate, ceil;   /* bytes per second */
    uint64_t bytes, packets, drops, overlimits, backlog, qlen;
    int64_t tokens, ctokens;
    uint64_t lends, borrows;
};

/* A 32-bit match at a byte offset from the IPv4 header; value and mask in host order. */
struct u32_key {
    uint32_t offset;
    uint32_t value;
    uint32_t mask;
};

typedef int (*htb_class_fn)(const struct htb_class_stats *cls, void *ctx);

/* Reads the psched clock once (as tc_core_init does); idempotent. */
void tc_init(void);

int tc_open(struct tc_error *err);
void tc_close(int fd);

int tc_ifindex(int fd, const char *dev, struct tc_error *err);

int tc_htb_root_add(int fd, int ifindex, uint32_t default_minor, uint32_t r2q, struct tc_error *err);
/* 1: our htb 1: was deleted; 0: the root qdisc is not ours (or there is none); -1: error */
int tc_htb_root_delete(int fd, int ifindex, struct tc_error *err);
/* 1: found, kind filled; 0: no root qdisc listed (noop); -1: error */
int tc_root_kind(int fd, int ifindex, char *kind, size_t kind_size, uint32_t *handle, struct tc_error *err);

int tc_htb_class_put(int fd, int ifindex, int create, uint32_t parent_minor, uint32_t minor,
                     const struct htb_rates *rates, struct tc_error *err);
int tc_htb_class_delete(int fd, int ifindex, uint32_t minor, struct tc_error *err);
/* Calls each for every class of qdisc 1: (minor 0) or for class 1:minor alone (absent: no call).
 * Returns the number of calls, or -1. */
int tc_htb_classes(int fd, int ifindex, uint32_t minor, htb_class_fn each, void *ctx, struct tc_error *err);

int tc_pfifo_put(int fd, int ifindex, uint32_t class_minor, uint32_t handle_major, uint32_t limit,
                 struct tc_error *err);

int tc_u32_add(int fd, int ifindex, uint32_t node, uint32_t class_minor, const struct u32_key *keys,
               size_t nkeys, struct tc_error *err);
int tc_u32_delete(int fd, int ifindex, uint32_t node, struct tc_error *err);

/* Creates an htb qdisc on the loopback device of a private network namespace made for the purpose
 * (and gone with it). 0: HTB works; 1: the kernel refused (err says why); -1: no private namespace
 * could be made (err says why), so nothing is known. */
int tc_htb_probe(struct tc_error *err);

#endif
