/* tools/qemu-count/insn_regions.c: a QEMU TCG plugin (qemu-user 7.2) that counts the guest instructions executed
 * between calls of two marker functions of the program, sarnn_count_begin() and sarnn_count_end(), and prints
 * one line per region ("region <i> <instructions>") when the program exits. Exact and repeatable: it counts
 * instructions, whatever the host is doing; it says nothing of time.
 *
 * The plugin interface is declared here (the few calls used, as QEMU documents them for plugin API version 1);
 * Debian ships qemu-user built with plugin support but not the header. Build: cc -shared -fPIC -O2.
 * Use: qemu-aarch64 -plugin ./libinsn_regions.so ./program (the program linked with symbols, e.g. -static).
 * With -plugin ./libinsn_regions.so,symbols=on it also prints, per region, the instructions of each function
 * ("symbol <i> <instructions> <name>"): where a step's instructions go. With pcs=on, at exit, the instructions
 * executed inside any region per guest address ("pc <address> <count>"), for reading against a disassembly; with
 * region=<i> as well, inside region i only (counted from 0, in the order of "region" lines). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
typedef struct qemu_info_t qemu_info_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
enum qemu_plugin_cb_flags { QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_CB_R_REGS, QEMU_PLUGIN_CB_RW_REGS };
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };
typedef void (*qemu_plugin_vcpu_tb_trans_cb_t)(qemu_plugin_id_t id, struct qemu_plugin_tb* tb);
typedef void (*qemu_plugin_vcpu_udata_cb_t)(unsigned int vcpu_index, void* userdata);
typedef void (*qemu_plugin_udata_cb_t)(qemu_plugin_id_t id, void* userdata);

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb);
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb* tb);
struct qemu_plugin_insn* qemu_plugin_tb_get_insn(const struct qemu_plugin_tb* tb, size_t idx);
const char* qemu_plugin_insn_symbol(const struct qemu_plugin_insn* insn);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn* insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn* insn, enum qemu_plugin_op op, void* ptr,
                                                uint64_t imm);
void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn* insn, qemu_plugin_vcpu_udata_cb_t cb,
                                            enum qemu_plugin_cb_flags flags, void* userdata);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void* userdata);
void qemu_plugin_outs(const char* string);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

static uint64_t g_count;         /* every guest instruction so far (single-threaded programs) */
static uint64_t g_begin;         /* g_count at the last sarnn_count_begin() */
static uint64_t g_regions[4096]; /* instructions of each region, in order */
static unsigned g_n;

/* per function (the "symbols" argument): a counter per symbol name, snapshot at begin, printed at end */
enum { kMaxSymbols = 2048 };
static int g_symbols;
static const char* g_sym_name[kMaxSymbols];
static uint64_t g_sym_count[kMaxSymbols];
static uint64_t g_sym_begin[kMaxSymbols];
static unsigned g_sym_n;

/* per address (the "pcs" argument): counted only inside a region */
enum { kMaxPcs = 1 << 20 };
static int g_pcs, g_in_region;
static long g_only = -1; /* region=<i>: per address, only region i (the regions counted from 0) */
static uint64_t g_pc_addr[kMaxPcs], g_pc_count[kMaxPcs];
static unsigned g_pc_n;

static void on_pc(unsigned int vcpu, void* u) {
    (void)vcpu;
    if (g_in_region) ++*(uint64_t*)u;
}

static uint64_t* symbol_counter(const char* name) {
    if (name == NULL) name = "?";
    for (unsigned i = 0; i < g_sym_n; ++i)
        if (strcmp(g_sym_name[i], name) == 0) return &g_sym_count[i];
    if (g_sym_n == kMaxSymbols) return &g_sym_count[kMaxSymbols - 1];
    g_sym_name[g_sym_n] = strdup(name);
    return &g_sym_count[g_sym_n++];
}

static void on_begin(unsigned int vcpu, void* u) {
    (void)vcpu;
    (void)u;
    g_begin = g_count;
    g_in_region = g_only < 0 || (long)g_n == g_only;
    if (g_symbols) memcpy(g_sym_begin, g_sym_count, sizeof g_sym_count);
}
static void on_end(unsigned int vcpu, void* u) {
    (void)vcpu;
    (void)u;
    if (g_symbols) {
        char line[512];
        for (unsigned i = 0; i < g_sym_n; ++i)
            if (g_sym_count[i] != g_sym_begin[i]) {
                snprintf(line, sizeof line, "symbol %u %" PRIu64 " %s\n", g_n, g_sym_count[i] - g_sym_begin[i],
                         g_sym_name[i]);
                qemu_plugin_outs(line);
            }
    }
    if (g_n < sizeof g_regions / sizeof g_regions[0]) g_regions[g_n++] = g_count - g_begin;
    g_in_region = 0;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb* tb) {
    (void)id;
    const size_t n = qemu_plugin_tb_n_insns(tb);
    for (size_t i = 0; i < n; ++i) {
        struct qemu_plugin_insn* insn = qemu_plugin_tb_get_insn(tb, i);
        const char* sym = qemu_plugin_insn_symbol(insn);
        /* the markers: callbacks before the instruction's inline count, so that a region counts the
           instructions from the begin marker's first one to the end marker's first one, excluded */
        if (sym != NULL && strcmp(sym, "sarnn_count_begin") == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_begin, QEMU_PLUGIN_CB_NO_REGS, NULL);
        else if (sym != NULL && strcmp(sym, "sarnn_count_end") == 0)
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_end, QEMU_PLUGIN_CB_NO_REGS, NULL);
        qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, &g_count, 1);
        if (g_symbols)
            qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, symbol_counter(sym), 1);
        if (g_pcs && g_pc_n < kMaxPcs) {
            /* a new slot per translation: the same address may be translated again, summed at exit */
            g_pc_addr[g_pc_n] = qemu_plugin_insn_vaddr(insn);
            qemu_plugin_register_vcpu_insn_exec_cb(insn, on_pc, QEMU_PLUGIN_CB_NO_REGS, &g_pc_count[g_pc_n]);
            ++g_pc_n;
        }
    }
}

static void on_exit_cb(qemu_plugin_id_t id, void* u) {
    (void)id;
    (void)u;
    char line[64];
    for (unsigned i = 0; i < g_n; ++i) {
        snprintf(line, sizeof line, "region %u %" PRIu64 "\n", i, g_regions[i]);
        qemu_plugin_outs(line);
    }
    for (unsigned i = 0; i < g_pc_n; ++i)
        if (g_pc_count[i] != 0) {
            snprintf(line, sizeof line, "pc %" PRIx64 " %" PRIu64 "\n", g_pc_addr[i], g_pc_count[i]);
            qemu_plugin_outs(line);
        }
}

__attribute__((visibility("default"))) int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t* info, int argc,
                                                               char** argv) {
    (void)info;
    for (int i = 0; i < argc; ++i)
        if (strstr(argv[i], "symbols") != NULL)
            g_symbols = 1;
        else if (strstr(argv[i], "pcs") != NULL)
            g_pcs = 1;
        else if (strncmp(argv[i], "region=", 7) == 0)
            g_only = strtol(argv[i] + 7, NULL, 10);
    qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
    qemu_plugin_register_atexit_cb(id, on_exit_cb, NULL);
    return 0;
}
