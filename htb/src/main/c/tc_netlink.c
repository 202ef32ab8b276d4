/*
 * HTB, pfifo and u32 over raw rtnetlink. Each request asks for an acknowledgement (NLM_F_ACK) and
 * waits for it, so every failure comes back with its errno and, where the kernel gives one, its
 * extended-ack message.
 */
#include "tc_netlink.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/gen_stats.h>
#include <linux/if_ether.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#ifndef NETLINK_EXT_ACK
#define NETLINK_EXT_ACK 11
#endif
#ifndef NETLINK_CAP_ACK
#define NETLINK_CAP_ACK 10
#endif

#define HTB_MAJOR 0x10000u          /* qdisc handle 1: */
#define REQUEST_SIZE 8192
#define RECEIVE_SIZE 65536          /* above the 32 KiB the kernel fills per dump message batch */
#define REPLY_TIMEOUT_SECONDS 10
#define TIME_UNITS_PER_SEC 1000000.0

static double ticks_per_usec = 15.625; /* 64 ns psched ticks, replaced by /proc/net/psched */
static pthread_once_t init_once = PTHREAD_ONCE_INIT;
static uint32_t sequence;

/* ---- errors ---- */

static int fail(struct tc_error *err, int code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int fail(struct tc_error *err, int code, const char *fmt, ...)
{
    err->code = code;
    err->detail[0] = '\0';
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, ap);
        va_end(ap);
    }
    return -1;
}

/* Keeps the kernel's text printable ASCII: it goes to Java as modified UTF-8. */
static void copy_detail(struct tc_error *err, const char *text, size_t max)
{
    size_t i = 0;
    for (; i < max && i + 1 < sizeof err->detail && text[i]; i++) {
        unsigned char c = (unsigned char)text[i];
        err->detail[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
    }
    while (i > 0 && (err->detail[i - 1] == '.' || err->detail[i - 1] == ' ')) {
        i--; /* the message ends the exception's text, which adds no full stop of its own */
    }
    err->detail[i] = '\0';
}

/* ---- the psched clock: buffers are given in its ticks ---- */

static void read_psched(void)
{
    /* As iproute2's tc_core_init: the first three words are t2us, us2t and the clock resolution. */
    FILE *f = fopen("/proc/net/psched", "re");
    if (!f) {
        return;
    }
    unsigned int t2us, us2t, clock_res;
    if (fscanf(f, "%08x%08x%08x", &t2us, &us2t, &clock_res) == 3 && us2t != 0) {
        if (clock_res == 1000000000u) {
            t2us = us2t; /* the kernel's compatibility multiplier for nanosecond clocks */
        }
        ticks_per_usec = (double)t2us / us2t * ((double)clock_res / TIME_UNITS_PER_SEC);
    }
    fclose(f);
}

void tc_init(void)
{
    pthread_once(&init_once, read_psched);
}

/* Bytes at a rate to psched ticks, truncated at the same two steps as tc_calc_xmittime. */
static int xmit_ticks(uint64_t rate, uint32_t bytes, uint32_t *ticks, const char *what, struct tc_error *err)
{
    double usec = TIME_UNITS_PER_SEC * ((double)bytes / (double)rate);
    double t = usec < 4294967296.0 ? (double)(uint32_t)usec * ticks_per_usec : usec * ticks_per_usec;
    if (t >= 4294967296.0) {
        return fail(err, ERANGE, "%s %u B lasts %.0f s at %llu B/s, more than the kernel's %.0f s", what, bytes,
                    usec / TIME_UNITS_PER_SEC, (unsigned long long)rate, 4294967295.0 / ticks_per_usec / TIME_UNITS_PER_SEC);
    }
    *ticks = (uint32_t)t;
    return 0;
}

/* ---- request building ---- */

struct request {
    union {
        struct nlmsghdr header;
        char bytes[REQUEST_SIZE];
    } u;
    int overflow;
};

static struct tcmsg *request_init(struct request *rq, uint16_t type, uint16_t flags, int ifindex)
{
    memset(rq, 0, sizeof(struct nlmsghdr) + NLMSG_ALIGN(sizeof(struct tcmsg)));
    rq->overflow = 0;
    rq->u.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct tcmsg));
    rq->u.header.nlmsg_type = type;
    rq->u.header.nlmsg_flags = flags;
    struct tcmsg *t = NLMSG_DATA(&rq->u.header);
    t->tcm_family = AF_UNSPEC;
    t->tcm_ifindex = ifindex;
    return t;
}

static struct rtattr *put(struct request *rq, uint16_t type, const void *data, size_t len)
{
    size_t at = NLMSG_ALIGN(rq->u.header.nlmsg_len);
    size_t total = RTA_LENGTH(len);
    if (rq->overflow || at + RTA_ALIGN(total) > sizeof rq->u.bytes) {
        rq->overflow = 1;
        return NULL;
    }
    struct rtattr *rta = (struct rtattr *)(rq->u.bytes + at);
    rta->rta_type = type;
    rta->rta_len = (unsigned short)total;
    if (len) {
        memcpy(RTA_DATA(rta), data, len);
    }
    memset((char *)RTA_DATA(rta) + len, 0, RTA_ALIGN(total) - total);
    rq->u.header.nlmsg_len = (uint32_t)(at + RTA_ALIGN(total));
    return rta;
}

static void put_u32(struct request *rq, uint16_t type, uint32_t v) { put(rq, type, &v, sizeof v); }
static void put_u64(struct request *rq, uint16_t type, uint64_t v) { put(rq, type, &v, sizeof v); }
static void put_string(struct request *rq, uint16_t type, const char *s) { put(rq, type, s, strlen(s) + 1); }

static struct rtattr *nest_begin(struct request *rq, uint16_t type)
{
    return put(rq, type | NLA_F_NESTED, NULL, 0);
}

static void nest_end(struct request *rq, struct rtattr *nest)
{
    if (nest && !rq->overflow) {
        nest->rta_len = (unsigned short)(rq->u.bytes + rq->u.header.nlmsg_len - (char *)nest);
    }
}

/* ---- the exchange ---- */

typedef int (*reply_fn)(const struct nlmsghdr *reply, void *ctx, struct tc_error *err);

static void read_extack(const struct nlmsghdr *h, size_t offset, struct tc_error *err)
{
    if (!(h->nlmsg_flags & NLM_F_ACK_TLVS)) {
        return;
    }
    const char *at = (const char *)NLMSG_DATA(h) + NLMSG_ALIGN(offset);
    const char *end = (const char *)h + h->nlmsg_len;
    while (at + sizeof(struct nlattr) <= end) {
        const struct nlattr *a = (const struct nlattr *)at;
        if (a->nla_len < sizeof(struct nlattr) || at + a->nla_len > end) {
            return;
        }
        if ((a->nla_type & NLA_TYPE_MASK) == NLMSGERR_ATTR_MSG) {
            copy_detail(err, (const char *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
            return;
        }
        at += NLA_ALIGN(a->nla_len);
    }
}

/* NLMSG_ERROR: 0 for an acknowledgement, -1 with err filled for a refusal. */
static int read_ack(const struct nlmsghdr *h, struct tc_error *err)
{
    if (h->nlmsg_len < NLMSG_LENGTH(sizeof(struct nlmsgerr))) {
        return fail(err, EBADMSG, "truncated acknowledgement from the kernel");
    }
    const struct nlmsgerr *e = NLMSG_DATA(h);
    if (e->error == 0) {
        return 0;
    }
    err->code = e->error < 0 ? -e->error : e->error;
    err->detail[0] = '\0';
    size_t offset = sizeof *e;
    if (!(h->nlmsg_flags & NLM_F_CAPPED) && e->msg.nlmsg_len >= NLMSG_HDRLEN) {
        offset += e->msg.nlmsg_len - NLMSG_HDRLEN; /* the request echoed back */
    }
    read_extack(h, offset, err);
    return -1;
}

/* NLMSG_DONE ends a dump; it carries the dump's own error, if any. */
static int read_done(const struct nlmsghdr *h, struct tc_error *err)
{
    if (h->nlmsg_len < NLMSG_LENGTH(sizeof(int))) {
        return 0;
    }
    int code;
    memcpy(&code, NLMSG_DATA(h), sizeof code);
    if (code >= 0) {
        return 0;
    }
    err->code = -code;
    err->detail[0] = '\0';
    read_extack(h, sizeof code, err);
    return -1;
}

/* Sends the request and reads until its acknowledgement (or, for a dump, its end), handing every
 * other answer to each(). Returns 0 or -1. If each() fails the answers are still read to their end:
 * a dump left half-read would keep the socket busy (EBUSY) for the next one. Answers to earlier
 * requests (other sequence numbers) are skipped. */
static int transact(int fd, struct request *rq, reply_fn each, void *ctx, struct tc_error *err)
{
    struct nlmsghdr *n = &rq->u.header;
    if (rq->overflow) {
        return fail(err, EMSGSIZE, "request larger than the library's %d bytes", REQUEST_SIZE);
    }
    n->nlmsg_flags |= NLM_F_REQUEST | NLM_F_ACK;
    n->nlmsg_seq = __atomic_add_fetch(&sequence, 1, __ATOMIC_RELAXED);
    n->nlmsg_pid = 0;

    struct sockaddr_nl kernel = { .nl_family = AF_NETLINK };
    ssize_t sent;
    do {
        sent = sendto(fd, n, n->nlmsg_len, 0, (struct sockaddr *)&kernel, sizeof kernel);
    } while (sent < 0 && errno == EINTR);
    if (sent < 0) {
        return fail(err, errno, "sending the request to the kernel");
    }

    char *buffer = malloc(RECEIVE_SIZE);
    if (!buffer) {
        return fail(err, ENOMEM, "no memory for the kernel's answer");
    }
    int result = 1; /* 1: reading on */
    int rejected = 0; /* each() failed: err holds why; the rest is read and dropped */
    while (result == 1) {
        struct sockaddr_nl from;
        struct iovec iov = { .iov_base = buffer, .iov_len = RECEIVE_SIZE };
        struct msghdr mh = { .msg_name = &from, .msg_namelen = sizeof from, .msg_iov = &iov, .msg_iovlen = 1 };
        ssize_t len = recvmsg(fd, &mh, 0);
        if (len < 0) {
            if (errno == EINTR) {
                continue;
            }
            if (errno == EAGAIN || errno == EWOULDBLOCK) {
                result = fail(err, ETIMEDOUT, "no answer from the kernel in %d s", REPLY_TIMEOUT_SECONDS);
            } else if (errno == ENOBUFS) {
                result = fail(err, ENOBUFS, "the kernel's answer overran the socket's receive buffer");
            } else {
                result = fail(err, errno, "receiving the kernel's answer");
            }
            break;
        }
        if (mh.msg_flags & MSG_TRUNC) {
            result = fail(err, EMSGSIZE, "the kernel's answer was larger than %d bytes", RECEIVE_SIZE);
            break;
        }
        if (from.nl_pid != 0) {
            continue; /* not from the kernel */
        }
        size_t left = (size_t)len;
        for (const struct nlmsghdr *h = (const struct nlmsghdr *)buffer; result == 1 && NLMSG_OK(h, left);
             h = NLMSG_NEXT(h, left)) {
            if (h->nlmsg_seq != n->nlmsg_seq) {
                continue;
            }
            if (h->nlmsg_type == NLMSG_ERROR || h->nlmsg_type == NLMSG_DONE) {
                struct tc_error end;
                result = h->nlmsg_type == NLMSG_ERROR ? read_ack(h, &end) : read_done(h, &end);
                if (result < 0 && !rejected) {
                    *err = end;
                }
            } else if (h->nlmsg_type == NLMSG_NOOP || h->nlmsg_type == NLMSG_OVERRUN) {
                continue;
            } else if (each && !rejected && each(h, ctx, err) < 0) {
                rejected = 1;
            }
        }
    }
    free(buffer);
    return rejected ? -1 : result;
}

/* ---- the socket ---- */

static int socket_in_current_namespace(struct tc_error *err)
{
    int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
    if (fd < 0) {
        return fail(err, errno, "socket(AF_NETLINK, NETLINK_ROUTE)");
    }
    int on = 1;
    /* both are optional: without them errors come without the kernel's text */
    (void)setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &on, sizeof on);
    (void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &on, sizeof on);
    struct timeval timeout = { .tv_sec = REPLY_TIMEOUT_SECONDS };
    if (setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout) < 0) {
        int e = errno;
        close(fd);
        return fail(err, e, "setting the socket's receive timeout");
    }
    struct sockaddr_nl local = { .nl_family = AF_NETLINK };
    if (bind(fd, (struct sockaddr *)&local, sizeof local) < 0) {
        int e = errno;
        close(fd);
        return fail(err, e, "bind(AF_NETLINK)");
    }
    return fd;
}

int tc_open(struct tc_error *err)
{
    tc_init();
    return socket_in_current_namespace(err);
}

void tc_close(int fd)
{
    close(fd);
}

/* ---- attribute reading ---- */

static void parse_attrs(struct rtattr **table, int max, const struct rtattr *rta, size_t len)
{
    memset(table, 0, sizeof(struct rtattr *) * (size_t)(max + 1));
    for (; RTA_OK(rta, len); rta = RTA_NEXT(rta, len)) {
        unsigned short type = rta->rta_type & NLA_TYPE_MASK;
        if (type <= max && !table[type]) {
            table[type] = (struct rtattr *)rta;
        }
    }
}

static void parse_nested(struct rtattr **table, int max, const struct rtattr *nest)
{
    parse_attrs(table, max, RTA_DATA(nest), RTA_PAYLOAD(nest));
}

/* Copies an attribute's payload, zero-filling what a shorter (older) kernel structure lacks. */
static void read_struct(const struct rtattr *rta, void *out, size_t size)
{
    memset(out, 0, size);
    if (rta) {
        size_t len = RTA_PAYLOAD(rta);
        memcpy(out, RTA_DATA(rta), len < size ? len : size);
    }
}

static uint64_t read_u64(const struct rtattr *rta, uint64_t otherwise)
{
    uint64_t v;
    if (!rta || RTA_PAYLOAD(rta) < sizeof v) {
        return otherwise;
    }
    memcpy(&v, RTA_DATA(rta), sizeof v);
    return v;
}

static const char *read_kind(const struct rtattr *rta)
{
    if (!rta || RTA_PAYLOAD(rta) == 0 || ((const char *)RTA_DATA(rta))[RTA_PAYLOAD(rta) - 1] != '\0') {
        return "";
    }
    return RTA_DATA(rta);
}

/* ---- devices ---- */

static int link_index(const struct nlmsghdr *h, void *ctx, struct tc_error *err)
{
    (void)err;
    if (h->nlmsg_type == RTM_NEWLINK && h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct ifinfomsg))) {
        const struct ifinfomsg *ifi = NLMSG_DATA(h);
        *(int *)ctx = ifi->ifi_index;
    }
    return 0;
}

int tc_ifindex(int fd, const char *dev, struct tc_error *err)
{
    struct request rq;
    memset(&rq.u.header, 0, sizeof(struct nlmsghdr) + NLMSG_ALIGN(sizeof(struct ifinfomsg)));
    rq.overflow = 0;
    rq.u.header.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
    rq.u.header.nlmsg_type = RTM_GETLINK;
    struct ifinfomsg *ifi = NLMSG_DATA(&rq.u.header);
    ifi->ifi_family = AF_UNSPEC;
    put_string(&rq, IFLA_IFNAME, dev);
    put_u32(&rq, IFLA_EXT_MASK, RTEXT_FILTER_SKIP_STATS);
    int index = 0;
    if (transact(fd, &rq, link_index, &index, err) < 0) {
        return -1;
    }
    if (index <= 0) {
        return fail(err, ENODEV, "the kernel answered without an interface index");
    }
    return index;
}

/* ---- the root qdisc ---- */

int tc_htb_root_add(int fd, int ifindex, uint32_t default_minor, uint32_t r2q, struct tc_error *err)
{
    struct request rq;
    struct tcmsg *t = request_init(&rq, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_EXCL, ifindex);
    t->tcm_parent = TC_H_ROOT;
    t->tcm_handle = HTB_MAJOR;
    put_string(&rq, TCA_KIND, "htb");
    struct rtattr *options = nest_begin(&rq, TCA_OPTIONS);
    struct tc_htb_glob glob = { .version = TC_HTB_PROTOVER, .rate2quantum = r2q, .defcls = default_minor };
    put(&rq, TCA_HTB_INIT, &glob, sizeof glob);
    nest_end(&rq, options);
    return transact(fd, &rq, NULL, NULL, err);
}

struct root_query {
    int ifindex;
    int found;
    char kind[IFNAMSIZ];
    uint32_t handle;
};

static int root_qdisc(const struct nlmsghdr *h, void *ctx, struct tc_error *err)
{
    (void)err;
    struct root_query *q = ctx;
    if (h->nlmsg_type != RTM_NEWQDISC || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg))) {
        return 0;
    }
    const struct tcmsg *t = NLMSG_DATA(h);
    if (q->found || t->tcm_ifindex != q->ifindex || t->tcm_parent != TC_H_ROOT) {
        return 0;
    }
    struct rtattr *tb[TCA_MAX + 1];
    parse_attrs(tb, TCA_MAX, TCA_RTA(t), h->nlmsg_len - NLMSG_LENGTH(sizeof *t));
    snprintf(q->kind, sizeof q->kind, "%s", read_kind(tb[TCA_KIND]));
    q->handle = t->tcm_handle;
    q->found = 1;
    return 0;
}

int tc_root_kind(int fd, int ifindex, char *kind, size_t kind_size, uint32_t *handle, struct tc_error *err)
{
    struct request rq;
    request_init(&rq, RTM_GETQDISC, NLM_F_DUMP, ifindex);
    /* the kernel dumps every device's qdiscs; the root of this one is picked out */
    struct root_query q = { .ifindex = ifindex };
    if (transact(fd, &rq, root_qdisc, &q, err) < 0) {
        return -1;
    }
    if (!q.found) {
        return 0;
    }
    snprintf(kind, kind_size, "%s", q.kind);
    *handle = q.handle;
    return 1;
}

int tc_htb_root_delete(int fd, int ifindex, struct tc_error *err)
{
    char kind[IFNAMSIZ];
    uint32_t handle = 0;
    int found = tc_root_kind(fd, ifindex, kind, sizeof kind, &handle, err);
    if (found <= 0) {
        return found;
    }
    if (strcmp(kind, "htb") != 0 || handle != HTB_MAJOR) {
        return 0;
    }
    struct request rq;
    struct tcmsg *t = request_init(&rq, RTM_DELQDISC, 0, ifindex);
    t->tcm_parent = TC_H_ROOT;
    t->tcm_handle = HTB_MAJOR; /* the kernel refuses if the root changed in between */
    put_string(&rq, TCA_KIND, "htb");
    if (transact(fd, &rq, NULL, NULL, err) < 0) {
        return -1;
    }
    return 1;
}

/* ---- classes ---- */

int tc_htb_class_put(int fd, int ifindex, int create, uint32_t parent_minor, uint32_t minor,
                     const struct htb_rates *rates, struct tc_error *err)
{
    struct tc_htb_opt opt;
    memset(&opt, 0, sizeof opt);
    /* a link layer instead of rate tables: the kernel computes transmission times itself */
    opt.rate.linklayer = TC_LINKLAYER_ETHERNET;
    opt.ceil.linklayer = TC_LINKLAYER_ETHERNET;
    opt.rate.rate = rates->rate >= (1ULL << 32) ? ~0U : (uint32_t)rates->rate;
    opt.ceil.rate = rates->ceil >= (1ULL << 32) ? ~0U : (uint32_t)rates->ceil;
    if (xmit_ticks(rates->rate, rates->burst, &opt.buffer, "burst", err) < 0
        || xmit_ticks(rates->ceil, rates->cburst, &opt.cbuffer, "cburst", err) < 0) {
        return -1;
    }
    opt.quantum = rates->quantum;
    opt.prio = rates->prio;

    struct request rq;
    struct tcmsg *t = request_init(&rq, RTM_NEWTCLASS, create ? NLM_F_CREATE | NLM_F_EXCL : 0, ifindex);
    t->tcm_parent = HTB_MAJOR | parent_minor;
    t->tcm_handle = HTB_MAJOR | minor;
    put_string(&rq, TCA_KIND, "htb");
    struct rtattr *options = nest_begin(&rq, TCA_OPTIONS);
    put(&rq, TCA_HTB_PARMS, &opt, sizeof opt);
    if (rates->rate >= (1ULL << 32)) {
        put_u64(&rq, TCA_HTB_RATE64, rates->rate);
    }
    if (rates->ceil >= (1ULL << 32)) {
        put_u64(&rq, TCA_HTB_CEIL64, rates->ceil);
    }
    nest_end(&rq, options);
    return transact(fd, &rq, NULL, NULL, err);
}

int tc_htb_class_delete(int fd, int ifindex, uint32_t minor, struct tc_error *err)
{
    struct request rq;
    struct tcmsg *t = request_init(&rq, RTM_DELTCLASS, 0, ifindex);
    t->tcm_handle = HTB_MAJOR | minor;
    return transact(fd, &rq, NULL, NULL, err);
}

struct class_walk {
    htb_class_fn each;
    void *ctx;
    int count;
};

static int htb_class(const struct nlmsghdr *h, void *ctx, struct tc_error *err)
{
    struct class_walk *walk = ctx;
    if (h->nlmsg_type != RTM_NEWTCLASS || h->nlmsg_len < NLMSG_LENGTH(sizeof(struct tcmsg))) {
        return 0;
    }
    const struct tcmsg *t = NLMSG_DATA(h);
    if (TC_H_MAJ(t->tcm_handle) != HTB_MAJOR || TC_H_MIN(t->tcm_handle) == 0) {
        return 0;
    }
    struct rtattr *tb[TCA_MAX + 1];
    parse_attrs(tb, TCA_MAX, TCA_RTA(t), h->nlmsg_len - NLMSG_LENGTH(sizeof *t));
    if (strcmp(read_kind(tb[TCA_KIND]), "htb") != 0 || !tb[TCA_OPTIONS]) {
        return 0;
    }
    struct rtattr *htb[TCA_HTB_MAX + 1];
    parse_nested(htb, TCA_HTB_MAX, tb[TCA_OPTIONS]);
    if (!htb[TCA_HTB_PARMS]) {
        return fail(err, EBADMSG, "class 1:%x came without its HTB parameters", TC_H_MIN(t->tcm_handle));
    }
    struct tc_htb_opt opt;
    read_struct(htb[TCA_HTB_PARMS], &opt, sizeof opt);

    struct htb_class_stats cls;
    memset(&cls, 0, sizeof cls);
    cls.minor = TC_H_MIN(t->tcm_handle);
    cls.parent_minor = t->tcm_parent == TC_H_ROOT ? 0 : TC_H_MIN(t->tcm_parent);
    cls.leaf = opt.level == 0;
    cls.prio = opt.prio;
    cls.rate = read_u64(htb[TCA_HTB_RATE64], opt.rate.rate);
    cls.ceil = read_u64(htb[TCA_HTB_CEIL64], opt.ceil.rate);

    if (tb[TCA_STATS2]) {
        struct rtattr *st[TCA_STATS_MAX + 1];
        parse_nested(st, TCA_STATS_MAX, tb[TCA_STATS2]);
        struct gnet_stats_basic basic;
        read_struct(st[TCA_STATS_BASIC], &basic, sizeof basic);
        cls.bytes = basic.bytes;
        cls.packets = read_u64(st[TCA_STATS_PKT64], basic.packets);
        struct gnet_stats_queue queue;
        read_struct(st[TCA_STATS_QUEUE], &queue, sizeof queue);
        cls.qlen = queue.qlen;
        cls.backlog = queue.backlog;
        cls.drops = queue.drops;
        cls.overlimits = queue.overlimits;
        if (!tb[TCA_XSTATS]) {
            tb[TCA_XSTATS] = st[TCA_STATS_APP];
        }
    } else if (tb[TCA_STATS]) {
        struct tc_stats old;
        read_struct(tb[TCA_STATS], &old, sizeof old);
        cls.bytes = old.bytes;
        cls.packets = old.packets;
        cls.drops = old.drops;
        cls.overlimits = old.overlimits;
        cls.qlen = old.qlen;
        cls.backlog = old.backlog;
    }
    struct tc_htb_xstats x;
    read_struct(tb[TCA_XSTATS], &x, sizeof x);
    cls.lends = x.lends;
    cls.borrows = x.borrows;
    cls.tokens = x.tokens;
    cls.ctokens = x.ctokens;

    walk->count++;
    return walk->each(&cls, walk->ctx) < 0 ? fail(err, ENOMEM, "no memory for the class list") : 0;
}

int tc_htb_classes(int fd, int ifindex, uint32_t minor, htb_class_fn each, void *ctx, struct tc_error *err)
{
    struct request rq;
    struct class_walk walk = { .each = each, .ctx = ctx };
    if (minor == 0) {
        struct tcmsg *t = request_init(&rq, RTM_GETTCLASS, NLM_F_DUMP, ifindex);
        t->tcm_parent = HTB_MAJOR; /* only the classes of qdisc 1: */
        return transact(fd, &rq, htb_class, &walk, err) < 0 ? -1 : walk.count;
    }
    /* the kernel answers a single class only to NLM_F_ECHO (and tc monitor sees a copy); cheaper
     * than a dump of every class, which is what a lookup on a thousand-class tree would cost */
    struct tcmsg *t = request_init(&rq, RTM_GETTCLASS, NLM_F_ECHO, ifindex);
    t->tcm_handle = HTB_MAJOR | minor;
    if (transact(fd, &rq, htb_class, &walk, err) < 0) {
        if (err->code == ENOENT) {
            return 0; /* no such class, or no qdisc 1: */
        }
        return -1;
    }
    return walk.count;
}

/* ---- leaf queues ---- */

int tc_pfifo_put(int fd, int ifindex, uint32_t class_minor, uint32_t handle_major, uint32_t limit,
                 struct tc_error *err)
{
    struct request rq;
    /* CREATE|REPLACE without EXCL: a new pfifo, or a new limit for the one already there */
    struct tcmsg *t = request_init(&rq, RTM_NEWQDISC, NLM_F_CREATE | NLM_F_REPLACE, ifindex);
    t->tcm_parent = HTB_MAJOR | class_minor;
    t->tcm_handle = handle_major << 16;
    put_string(&rq, TCA_KIND, "pfifo");
    struct tc_fifo_qopt fifo = { .limit = limit };
    put(&rq, TCA_OPTIONS, &fifo, sizeof fifo);
    return transact(fd, &rq, NULL, NULL, err);
}

/* ---- u32 filters: parent 1:, protocol ip, prio 1, handle 800::node ---- */

#define U32_PRIO 1u
#define U32_ROOT_TABLE 0x80000000u /* hash table 800:, bucket 0 */

static void u32_filter_init(struct request *rq, uint16_t type, uint16_t flags, int ifindex, uint32_t node)
{
    struct tcmsg *t = request_init(rq, type, flags, ifindex);
    t->tcm_parent = HTB_MAJOR;
    t->tcm_handle = U32_ROOT_TABLE | node;
    t->tcm_info = TC_H_MAKE(U32_PRIO << 16, htons(ETH_P_IP));
    put_string(rq, TCA_KIND, "u32");
}

int tc_u32_add(int fd, int ifindex, uint32_t node, uint32_t class_minor, const struct u32_key *keys,
               size_t nkeys, struct tc_error *err)
{
    if (nkeys > 128) {
        return fail(err, E2BIG, "%zu keys; u32 takes at most 128", nkeys);
    }
    struct {
        struct tc_u32_sel sel;
        struct tc_u32_key keys[128];
    } selector;
    memset(&selector, 0, sizeof selector);
    selector.sel.flags = TC_U32_TERMINAL;
    selector.sel.nkeys = (unsigned char)nkeys;
    for (size_t i = 0; i < nkeys; i++) {
        selector.keys[i].off = (int)keys[i].offset;
        selector.keys[i].val = htonl(keys[i].value & keys[i].mask);
        selector.keys[i].mask = htonl(keys[i].mask);
    }
    struct request rq;
    u32_filter_init(&rq, RTM_NEWTFILTER, NLM_F_CREATE | NLM_F_EXCL, ifindex, node);
    struct rtattr *options = nest_begin(&rq, TCA_OPTIONS);
    put_u32(&rq, TCA_U32_CLASSID, HTB_MAJOR | class_minor);
    put(&rq, TCA_U32_SEL, &selector, sizeof selector.sel + nkeys * sizeof selector.keys[0]);
    nest_end(&rq, options);
    return transact(fd, &rq, NULL, NULL, err);
}

int tc_u32_delete(int fd, int ifindex, uint32_t node, struct tc_error *err)
{
    struct request rq;
    u32_filter_init(&rq, RTM_DELTFILTER, 0, ifindex, node);
    return transact(fd, &rq, NULL, NULL, err);
}

/* ---- the HTB probe ---- */

struct probe_socket {
    int fd;
    struct tc_error err;
};

/* Runs on a thread of its own so that the caller's thread never leaves its namespace. */
static void *open_in_private_namespace(void *arg)
{
    struct probe_socket *p = arg;
    if (unshare(CLONE_NEWNET) < 0) {
        p->fd = fail(&p->err, errno, "a private network namespace for the probe could not be made");
    } else {
        p->fd = socket_in_current_namespace(&p->err);
    }
    return NULL;
}

int tc_htb_probe(struct tc_error *err)
{
    tc_init();
    struct probe_socket p = { .fd = -1 };
    pthread_t thread;
    int rc = pthread_create(&thread, NULL, open_in_private_namespace, &p);
    if (rc != 0) {
        return fail(err, rc, "no thread for the probe");
    }
    pthread_join(thread, NULL);
    if (p.fd < 0) {
        *err = p.err;
        return -1;
    }
    /* the socket holds the namespace; its loopback device (always index 1) is the throwaway */
    int refused = tc_htb_root_add(p.fd, 1, 0, 10, err) < 0;
    close(p.fd);
    return refused ? 1 : 0;
}
