/*
 * The JNI surface of libgridstat-htb: org.gridstat.htb.internal.TrafficControl (tc over rtnetlink)
 * and org.gridstat.htb.internal.NamespaceSwitch (setns on the calling thread), registered in
 * JNI_OnLoad so that a library and classes that do not match fail at load, not at first use.
 *
 * Failures reach Java as org.gridstat.htb.HtbException (operation, device, errno, the error's text,
 * the kernel's extended-ack message) or java.io.IOException; nothing here aborts the JVM.
 */
#include <jni.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tc_netlink.h"

#define UNUSED __attribute__((unused))
#define CLASS_FIELDS 16 /* longs per class in htbClasses(); TrafficControl.CLASS_FIELDS */
#define MAX_U32_KEYS 128

static jclass htb_exception;
static jmethodID htb_exception_init;
static jclass io_exception;
static jclass null_pointer_exception;

/* ---- exceptions ---- */

/* The errno's English text, whatever the process's locale. */
static void error_text(int code, char *out, size_t size)
{
#if defined(__GLIBC__) && (__GLIBC__ > 2 || (__GLIBC__ == 2 && __GLIBC_MINOR__ >= 32))
    const char *text = strerrordesc_np(code);
    snprintf(out, size, "%s", text ? text : "Unknown error");
#else
    char buf[128];
    const char *text = strerror_r(code, buf, sizeof buf);
    snprintf(out, size, "%s", text);
#endif
    for (char *c = out; *c; c++) {
        if ((unsigned char)*c < 0x20 || (unsigned char)*c >= 0x7f) {
            *c = '?';
        }
    }
}

static void throw_tc(JNIEnv *env, jstring operation, jstring dev, const struct tc_error *err)
{
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    char text[128];
    error_text(err->code, text, sizeof text);
    jstring jtext = (*env)->NewStringUTF(env, text);
    if (!jtext) {
        return; /* OutOfMemoryError pending */
    }
    jstring jdetail = NULL;
    if (err->detail[0]) {
        jdetail = (*env)->NewStringUTF(env, err->detail);
        if (!jdetail) {
            (*env)->DeleteLocalRef(env, jtext);
            return;
        }
    }
    jobject e = (*env)->NewObject(env, htb_exception, htb_exception_init, operation, dev, (jint)err->code, jtext,
                                  jdetail);
    if (e) {
        (*env)->Throw(env, (jthrowable)e);
        (*env)->DeleteLocalRef(env, e);
    }
    (*env)->DeleteLocalRef(env, jtext);
    if (jdetail) {
        (*env)->DeleteLocalRef(env, jdetail);
    }
}

static void throw_io(JNIEnv *env, int code, const char *what)
{
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    char text[128];
    char message[PATH_MAX + 256];
    error_text(code, text, sizeof text);
    snprintf(message, sizeof message, "%s: %s (errno %d)", what, text, code);
    (*env)->ThrowNew(env, io_exception, message);
}

/* Copies a Java string as modified UTF-8 into out; -1 with an exception pending if it is null or
 * does not fit. */
static int utf_region(JNIEnv *env, jstring s, char *out, size_t size, const char *what)
{
    if (!s) {
        (*env)->ThrowNew(env, null_pointer_exception, what);
        return -1;
    }
    jsize bytes = (*env)->GetStringUTFLength(env, s);
    jsize chars = (*env)->GetStringLength(env, s);
    if (bytes < 0 || (size_t)bytes >= size) {
        return -2;
    }
    (*env)->GetStringUTFRegion(env, s, 0, chars, out);
    if ((*env)->ExceptionCheck(env)) {
        return -1;
    }
    out[bytes] = '\0';
    return 0;
}

/* The device's index, looked up on the socket (so in the socket's namespace); -1 with an
 * HtbException pending. */
static int device_index(JNIEnv *env, jint fd, jstring operation, jstring dev)
{
    char name[IFNAMSIZ];
    struct tc_error err;
    int rc = utf_region(env, dev, name, sizeof name, "dev");
    if (rc == -1) {
        return -1;
    }
    if (rc == -2 || name[0] == '\0') {
        err.code = EINVAL;
        snprintf(err.detail, sizeof err.detail, "an interface name is 1 to %d bytes", IFNAMSIZ - 1);
        throw_tc(env, operation, dev, &err);
        return -1;
    }
    int index = tc_ifindex(fd, name, &err);
    if (index < 0) {
        throw_tc(env, operation, dev, &err);
        return -1;
    }
    return index;
}

/* ---- TrafficControl ---- */

static jint JNICALL tc_open_socket(JNIEnv *env, UNUSED jclass cls)
{
    struct tc_error err;
    int fd = tc_open(&err);
    if (fd < 0) {
        throw_io(env, err.code, err.detail);
    }
    return fd;
}

static void JNICALL tc_close_socket(UNUSED JNIEnv *env, UNUSED jclass cls, jint fd)
{
    tc_close(fd);
}

static jstring JNICALL tc_strerror(JNIEnv *env, UNUSED jclass cls, jint code)
{
    char text[128];
    error_text(code, text, sizeof text);
    return (*env)->NewStringUTF(env, text);
}

static jint JNICALL tc_ifindex_of(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev)
{
    int index = device_index(env, fd, operation, dev);
    return index < 0 ? 0 : index;
}

static void JNICALL tc_add_htb_root(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev,
                                    jint default_minor, jint r2q)
{
    int ifindex = device_index(env, fd, operation, dev);
    struct tc_error err;
    if (ifindex >= 0 && tc_htb_root_add(fd, ifindex, (uint32_t)default_minor, (uint32_t)r2q, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

static jboolean JNICALL tc_delete_htb_root(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev)
{
    int ifindex = device_index(env, fd, operation, dev);
    if (ifindex < 0) {
        return JNI_FALSE;
    }
    struct tc_error err;
    int deleted = tc_htb_root_delete(fd, ifindex, &err);
    if (deleted < 0) {
        throw_tc(env, operation, dev, &err);
        return JNI_FALSE;
    }
    return deleted ? JNI_TRUE : JNI_FALSE;
}

static jstring JNICALL tc_root_qdisc_kind(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev)
{
    int ifindex = device_index(env, fd, operation, dev);
    if (ifindex < 0) {
        return NULL;
    }
    char kind[IFNAMSIZ];
    uint32_t handle;
    struct tc_error err;
    int found = tc_root_kind(fd, ifindex, kind, sizeof kind, &handle, &err);
    if (found < 0) {
        throw_tc(env, operation, dev, &err);
        return NULL;
    }
    return found ? (*env)->NewStringUTF(env, kind) : NULL;
}

static void JNICALL tc_put_htb_class(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev,
                                     jboolean create, jint parent_minor, jint minor, jlong rate, jlong ceil,
                                     jint burst, jint cburst, jint prio, jint quantum)
{
    int ifindex = device_index(env, fd, operation, dev);
    if (ifindex < 0) {
        return;
    }
    struct htb_rates rates = {
        .rate = (uint64_t)rate,
        .ceil = (uint64_t)ceil,
        .burst = (uint32_t)burst,
        .cburst = (uint32_t)cburst,
        .prio = (uint32_t)prio,
        .quantum = (uint32_t)quantum,
    };
    struct tc_error err;
    if (tc_htb_class_put(fd, ifindex, create == JNI_TRUE, (uint32_t)parent_minor, (uint32_t)minor, &rates, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

static void JNICALL tc_delete_htb_class(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev,
                                        jint minor)
{
    int ifindex = device_index(env, fd, operation, dev);
    struct tc_error err;
    if (ifindex >= 0 && tc_htb_class_delete(fd, ifindex, (uint32_t)minor, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

struct class_list {
    jlong *fields;
    size_t count;
    size_t capacity;
};

static int collect_class(const struct htb_class_stats *c, void *ctx)
{
    struct class_list *list = ctx;
    if (list->count == list->capacity) {
        size_t capacity = list->capacity ? list->capacity * 2 : 64;
        jlong *grown = realloc(list->fields, capacity * CLASS_FIELDS * sizeof(jlong));
        if (!grown) {
            return -1;
        }
        list->fields = grown;
        list->capacity = capacity;
    }
    jlong *f = list->fields + list->count * CLASS_FIELDS;
    /* the order of ClassStatistics' components */
    f[0] = c->minor;
    f[1] = c->parent_minor;
    f[2] = c->leaf;
    f[3] = (jlong)c->rate;
    f[4] = (jlong)c->ceil;
    f[5] = c->prio;
    f[6] = (jlong)c->bytes;
    f[7] = (jlong)c->packets;
    f[8] = (jlong)c->drops;
    f[9] = (jlong)c->overlimits;
    f[10] = (jlong)c->backlog;
    f[11] = (jlong)c->qlen;
    f[12] = c->tokens;
    f[13] = c->ctokens;
    f[14] = (jlong)c->lends;
    f[15] = (jlong)c->borrows;
    list->count++;
    return 0;
}

static jlongArray JNICALL tc_htb_classes_of(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev,
                                            jint minor)
{
    int ifindex = device_index(env, fd, operation, dev);
    if (ifindex < 0) {
        return NULL;
    }
    struct class_list list = { 0 };
    struct tc_error err;
    jlongArray result = NULL;
    if (tc_htb_classes(fd, ifindex, (uint32_t)minor, collect_class, &list, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    } else {
        jsize length = (jsize)(list.count * CLASS_FIELDS);
        result = (*env)->NewLongArray(env, length);
        if (result && length > 0) {
            (*env)->SetLongArrayRegion(env, result, 0, length, list.fields);
            if ((*env)->ExceptionCheck(env)) {
                (*env)->DeleteLocalRef(env, result);
                result = NULL;
            }
        }
    }
    free(list.fields);
    return result;
}

static void JNICALL tc_put_pfifo(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev,
                                 jint class_minor, jint handle_major, jint limit)
{
    int ifindex = device_index(env, fd, operation, dev);
    struct tc_error err;
    if (ifindex >= 0
        && tc_pfifo_put(fd, ifindex, (uint32_t)class_minor, (uint32_t)handle_major, (uint32_t)limit, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

static void JNICALL tc_add_u32(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev, jint node,
                               jint class_minor, jintArray triples)
{
    struct tc_error err;
    if (!triples) {
        (*env)->ThrowNew(env, null_pointer_exception, "keys");
        return;
    }
    jsize length = (*env)->GetArrayLength(env, triples);
    if (length % 3 != 0 || length / 3 > MAX_U32_KEYS) {
        err.code = E2BIG;
        snprintf(err.detail, sizeof err.detail, "%d ints are not 1 to %d (offset, value, mask) keys", (int)length,
                 MAX_U32_KEYS);
        throw_tc(env, operation, dev, &err);
        return;
    }
    jint flat[MAX_U32_KEYS * 3];
    (*env)->GetIntArrayRegion(env, triples, 0, length, flat);
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    struct u32_key keys[MAX_U32_KEYS];
    size_t nkeys = (size_t)length / 3;
    for (size_t i = 0; i < nkeys; i++) {
        keys[i].offset = (uint32_t)flat[3 * i];
        keys[i].value = (uint32_t)flat[3 * i + 1];
        keys[i].mask = (uint32_t)flat[3 * i + 2];
    }
    int ifindex = device_index(env, fd, operation, dev);
    if (ifindex >= 0 && tc_u32_add(fd, ifindex, (uint32_t)node, (uint32_t)class_minor, keys, nkeys, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

static void JNICALL tc_delete_u32(JNIEnv *env, UNUSED jclass cls, jint fd, jstring operation, jstring dev, jint node)
{
    int ifindex = device_index(env, fd, operation, dev);
    struct tc_error err;
    if (ifindex >= 0 && tc_u32_delete(fd, ifindex, (uint32_t)node, &err) < 0) {
        throw_tc(env, operation, dev, &err);
    }
}

static jint JNICALL tc_probe_htb(UNUSED JNIEnv *env, UNUSED jclass cls)
{
    struct tc_error err;
    int outcome = tc_htb_probe(&err);
    if (outcome == 0) {
        return 0;
    }
    return outcome > 0 ? err.code : -err.code;
}

/* ---- NamespaceSwitch ---- */

static jint JNICALL ns_enter(JNIEnv *env, UNUSED jclass cls, jstring path)
{
    char target_path[PATH_MAX];
    int rc = utf_region(env, path, target_path, sizeof target_path, "path");
    if (rc == -1) {
        return -1;
    }
    if (rc == -2) {
        throw_io(env, ENAMETOOLONG, "network namespace path");
        return -1;
    }
    char own_path[64];
    snprintf(own_path, sizeof own_path, "/proc/self/task/%ld/ns/net", (long)syscall(SYS_gettid));
    int own = open(own_path, O_RDONLY | O_CLOEXEC);
    if (own < 0) {
        throw_io(env, errno, own_path);
        return -1;
    }
    int target = open(target_path, O_RDONLY | O_CLOEXEC);
    if (target < 0) {
        int e = errno;
        close(own);
        throw_io(env, e, target_path);
        return -1;
    }
    if (setns(target, CLONE_NEWNET) < 0) {
        int e = errno;
        close(target);
        close(own);
        char what[PATH_MAX + 32];
        snprintf(what, sizeof what, "setns to %s", target_path);
        throw_io(env, e, what);
        return -1;
    }
    close(target);
    return own;
}

static void JNICALL ns_leave(JNIEnv *env, UNUSED jclass cls, jint own)
{
    int rc = setns(own, CLONE_NEWNET);
    int e = errno;
    close(own);
    if (rc < 0) {
        throw_io(env, e, "setns back to this thread's own network namespace");
    }
}

/* ---- registration ---- */

#define METHOD(name, signature, fn) { (char *)(name), (char *)(signature), (void *)(fn) }
#define STR "Ljava/lang/String;"

static const JNINativeMethod traffic_control_methods[] = {
    METHOD("open", "()I", tc_open_socket),
    METHOD("close", "(I)V", tc_close_socket),
    METHOD("strerror", "(I)" STR, tc_strerror),
    METHOD("ifindex", "(I" STR STR ")I", tc_ifindex_of),
    METHOD("addHtbRoot", "(I" STR STR "II)V", tc_add_htb_root),
    METHOD("deleteHtbRoot", "(I" STR STR ")Z", tc_delete_htb_root),
    METHOD("rootQdiscKind", "(I" STR STR ")" STR, tc_root_qdisc_kind),
    METHOD("putHtbClass", "(I" STR STR "ZIIJJIIII)V", tc_put_htb_class),
    METHOD("deleteHtbClass", "(I" STR STR "I)V", tc_delete_htb_class),
    METHOD("htbClasses", "(I" STR STR "I)[J", tc_htb_classes_of),
    METHOD("putPfifo", "(I" STR STR "III)V", tc_put_pfifo),
    METHOD("addU32", "(I" STR STR "II[I)V", tc_add_u32),
    METHOD("deleteU32", "(I" STR STR "I)V", tc_delete_u32),
    METHOD("probeHtb", "()I", tc_probe_htb),
};

static const JNINativeMethod namespace_switch_methods[] = {
    METHOD("enter", "(" STR ")I", ns_enter),
    METHOD("leave", "(I)V", ns_leave),
};

static int register_natives(JNIEnv *env, const char *name, const JNINativeMethod *methods, jint count)
{
    jclass c = (*env)->FindClass(env, name);
    if (!c) {
        return -1;
    }
    jint rc = (*env)->RegisterNatives(env, c, methods, count);
    (*env)->DeleteLocalRef(env, c);
    return rc == JNI_OK ? 0 : -1;
}

static int global_class(JNIEnv *env, const char *name, jclass *out)
{
    jclass local = (*env)->FindClass(env, name);
    if (!local) {
        return -1;
    }
    *out = (*env)->NewGlobalRef(env, local);
    (*env)->DeleteLocalRef(env, local);
    return *out ? 0 : -1;
}

static void release_globals(JNIEnv *env)
{
    jclass *globals[] = { &htb_exception, &io_exception, &null_pointer_exception };
    for (size_t i = 0; i < sizeof globals / sizeof globals[0]; i++) {
        if (*globals[i]) {
            (*env)->DeleteGlobalRef(env, *globals[i]);
            *globals[i] = NULL;
        }
    }
}

/* A failure leaves its exception (NoClassDefFoundError, NoSuchMethodError, ...) pending: the JVM
 * throws it from System.load. */
JNIEXPORT jint JNICALL JNI_OnLoad(JavaVM *vm, UNUSED void *reserved)
{
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) != JNI_OK) {
        return JNI_ERR;
    }
    tc_init();
    if (global_class(env, "org/gridstat/htb/HtbException", &htb_exception) < 0
        || global_class(env, "java/io/IOException", &io_exception) < 0
        || global_class(env, "java/lang/NullPointerException", &null_pointer_exception) < 0) {
        release_globals(env);
        return JNI_ERR;
    }
    htb_exception_init = (*env)->GetMethodID(env, htb_exception, "<init>", "(" STR STR "I" STR STR ")V");
    if (!htb_exception_init
        || register_natives(env, "org/gridstat/htb/internal/TrafficControl", traffic_control_methods,
                            sizeof traffic_control_methods / sizeof traffic_control_methods[0]) < 0
        || register_natives(env, "org/gridstat/htb/internal/NamespaceSwitch", namespace_switch_methods,
                            sizeof namespace_switch_methods / sizeof namespace_switch_methods[0]) < 0) {
        release_globals(env);
        return JNI_ERR;
    }
    return JNI_VERSION_1_8;
}

JNIEXPORT void JNICALL JNI_OnUnload(JavaVM *vm, UNUSED void *reserved)
{
    JNIEnv *env;
    if ((*vm)->GetEnv(vm, (void **)&env, JNI_VERSION_1_8) == JNI_OK) {
        release_globals(env);
    }
}
