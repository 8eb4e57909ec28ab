/* tests/c_api/c_api_test.c: exported models driven through their C API (`python3 -m sarnn.export --c-api`), from C99.
 *
 * gen_c_api.py exports every model kind with its C API (X.h, X.cpp next to X.hpp) and writes their golden runs as C
 * data (c_api_golden.h: PyTorch's outputs, and for the q15 models the Python twin's int16 outputs). This program,
 * plain C99 built with -Wall -Wextra -Wpedantic -Werror, includes only the generated C headers, runs each model
 * through them and checks the values against the golden data and the status codes against the headers' SARNN_STATUS_*
 * (real_checks.inc for float and double, check_q15 below). It runs on the host and on the Cortex-M boards under qemu
 * (ctest sarnn_c_api, sarnn_c_api_firmware); prints "N passed, N failed" and exits with 0 only when nothing failed. */
#include <math.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "c_api_golden.h"
#include "ca_gru.h"
#include "ca_lstm.h"
#include "ca_lstmn.h"
#include "ca_q15_additive.h"
#include "ca_q15_gru.h"
#include "ca_q15_lstm.h"
#include "ca_q15_lstmn.h"
#include "ca_q15_sa.h"
#include "ca_q15_sa_gru.h"
#include "ca_q15_simple.h"
#include "ca_sa.h"
#include "ca_sa_double.h"
#include "ca_sa_gru.h"
#include "ca_sa_window.h"
#include "ca_simple.h"

#ifndef SARNN_C_API_CHECK_INPUT
#define SARNN_C_API_CHECK_INPUT 1 /* the library rejects NaN and Inf inputs (SARNN_CHECK_INPUT, on by default) */
#endif

enum { MAX_IN = 8, MAX_HIDDEN = 16, MAX_STEPS = 16 };

/* copy_check.cpp: the copy functions and the views' lifetime against the C++ models; the number of failures */
int c_api_copy_checks(void);

static int g_passed = 0;
static int g_failed = 0;

static void expect(int ok, const char* model, const char* what, size_t step) {
    if (ok) {
        ++g_passed;
    } else {
        ++g_failed;
        printf("FAIL %s step %u: %s\n", model, (unsigned)step, what);
    }
}

/* The h of each step of the model being checked (real_checks.inc), float or double: one buffer for both, the M0+
 * board has 16 KiB of RAM. */
static union {
    float f[MAX_STEPS][MAX_HIDDEN];
    double d[MAX_STEPS][MAX_HIDDEN];
} g_past_h;

#define REAL float
#define RM(name) name##_f
#define PAST_H g_past_h.f
#include "real_checks.inc"
#undef PAST_H
#undef RM
#undef REAL
#define REAL double
#define RM(name) name##_d
#define PAST_H g_past_h.d
#include "real_checks.inc"
#undef PAST_H
#undef RM
#undef REAL

/* A q15 model: raw int16 values. */
typedef struct {
    const char* name;
    void (*reset)(void);
    int (*step)(const int16_t* x);
    const int16_t* (*hidden)(void);
    const int16_t* (*context)(void);        /* NULL when the model has none; the q15 LSTMN's cell (Q3.12) */
    const int16_t* (*attention)(size_t* n); /* NULL when the model has none */
    uint64_t (*length)(void);
    int (*self_check)(void);
    size_t in, hidden_size, capacity; /* capacity 0: SimpleRnn */
    size_t steps;
    const int16_t* golden_x; /* [steps][in], raw */
    const float* golden_xf;  /* [steps][in], the float inputs golden_x was quantised from */
    float x_scale;           /* X_X_SCALE */
    const int16_t* golden_h; /* [steps][hidden_size], the Python twin's */
    const int16_t* golden_c; /* NULL when the model has no context (or cell) */
} Q15Model;

/* round(v) halves away from zero, saturated to int16 (the exporter's rule, docs/c-api.md) */
static int16_t quantize(float v) {
    const float r = v < 0 ? v - 0.5f : v + 0.5f;
    if (r >= 32767.0f) return 32767;
    if (r <= -32768.0f) return -32768;
    return (int16_t)(long)r;
}

static void check_q15(const Q15Model* m) {
    size_t t, k, j, n = 99;
    int zero = 1;
    printf("%s\n", m->name);
    for (t = 0; t < m->steps * m->in; ++t) zero = zero && quantize(m->golden_xf[t] / m->x_scale) == m->golden_x[t];
    expect(zero, m->name, "raw inputs = round(x / X_X_SCALE)", 0);
    m->reset();
    zero = m->length() == 0;
    for (k = 0; k < m->hidden_size; ++k) zero = zero && m->hidden()[k] == 0;
    expect(zero, m->name, "length() = 0, h = 0 after reset()", 0);
    expect(m->self_check() == 1 && m->length() == 0, m->name, "self_check() passes and resets", 0);
    for (t = 0; t < m->steps; ++t) {
        const int16_t* x = m->golden_x + t * m->in;
        if (t == m->steps / 2) {
            int16_t before[MAX_HIDDEN];
            const uint64_t length = m->length();
            memcpy(before, m->hidden(), m->hidden_size * sizeof(int16_t));
            expect(m->step(NULL) == SARNN_STATUS_NULL_INPUT, m->name, "a NULL input: null_input", t);
            expect(memcmp(before, m->hidden(), m->hidden_size * sizeof(int16_t)) == 0 && m->length() == length, m->name,
                   "a refused step changed h or length()", t);
        }
        expect(m->step(x) == SARNN_STATUS_OK, m->name, "step() ok", t);
        expect(memcmp(m->hidden(), m->golden_h + t * m->hidden_size, m->hidden_size * sizeof(int16_t)) == 0, m->name,
               "h = the Python twin's, bit for bit", t);
        expect(m->length() == t + 1, m->name, "length()", t);
        if (m->context != NULL)
            expect(memcmp(m->context(), m->golden_c + t * m->hidden_size, m->hidden_size * sizeof(int16_t)) == 0,
                   m->name, "c (context or cell) = the Python twin's, bit for bit", t);
        if (m->attention != NULL) {
            /* alpha_j = sum-normalised weights floored to Q15: 0 <= alpha_j, and sum_j alpha_j within n + 1 units
             * below 1 (32768) */
            const int16_t* a = m->attention(&n);
            long sum = 0;
            int ok = n == (t + 1 < m->capacity ? t + 1 : m->capacity);
            for (j = 0; ok && j < n; ++j) {
                ok = a[j] >= 0;
                sum += a[j];
            }
            expect(ok && sum <= 32768 && sum >= 32768 - (long)n - 1, m->name, "attention: n weights summing to 1", t);
        }
    }
    if (m->capacity != 0 && m->steps == m->capacity)
        expect(m->step(m->golden_x) == SARNN_STATUS_MEMORY_FULL, m->name, "a full Bounded memory: memory_full", t);
    m->reset();
    expect(m->step(m->golden_x) == SARNN_STATUS_OK &&
               memcmp(m->hidden(), m->golden_h, m->hidden_size * sizeof(int16_t)) == 0,
           m->name, "reset() starts over", 0);
}

int main(void) {
    /* float: SelfAttentionRnn (KeyQueryAlign, Bounded; DotAlign, Window), Lstmn, SimpleRnn; double: SelfAttentionRnn */
    const Model_f ca_sa = {"ca_sa",
                           ca_sa_reset,
                           ca_sa_step,
                           ca_sa_hidden,
                           ca_sa_context,
                           NULL,
                           ca_sa_attention,
                           ca_sa_length,
                           ca_sa_self_check,
                           CA_SA_IN_SIZE,
                           CA_SA_HIDDEN_SIZE,
                           CA_SA_CAPACITY,
                           CA_SA_WINDOW,
                           0,
                           CA_SA_GOLDEN_STEPS,
                           &ca_sa_golden_x[0][0],
                           &ca_sa_golden_h[0][0],
                           CA_SA_GOLDEN_TOLERANCE,
                           1e-5};
    const Model_f ca_sa_window = {"ca_sa_window",
                                  ca_sa_window_reset,
                                  ca_sa_window_step,
                                  ca_sa_window_hidden,
                                  ca_sa_window_context,
                                  NULL,
                                  ca_sa_window_attention,
                                  ca_sa_window_length,
                                  ca_sa_window_self_check,
                                  CA_SA_WINDOW_IN_SIZE,
                                  CA_SA_WINDOW_HIDDEN_SIZE,
                                  CA_SA_WINDOW_CAPACITY,
                                  CA_SA_WINDOW_WINDOW,
                                  0,
                                  CA_SA_WINDOW_GOLDEN_STEPS,
                                  &ca_sa_window_golden_x[0][0],
                                  &ca_sa_window_golden_h[0][0],
                                  CA_SA_WINDOW_GOLDEN_TOLERANCE,
                                  1e-5};
    /* the GRU cell under attention (SelfAttentionRnn<..., GruCell>, BilinearAlign, Window) */
    const Model_f ca_sa_gru = {"ca_sa_gru",
                               ca_sa_gru_reset,
                               ca_sa_gru_step,
                               ca_sa_gru_hidden,
                               ca_sa_gru_context,
                               NULL,
                               ca_sa_gru_attention,
                               ca_sa_gru_length,
                               ca_sa_gru_self_check,
                               CA_SA_GRU_IN_SIZE,
                               CA_SA_GRU_HIDDEN_SIZE,
                               CA_SA_GRU_CAPACITY,
                               CA_SA_GRU_WINDOW,
                               0,
                               CA_SA_GRU_GOLDEN_STEPS,
                               &ca_sa_gru_golden_x[0][0],
                               &ca_sa_gru_golden_h[0][0],
                               CA_SA_GRU_GOLDEN_TOLERANCE,
                               1e-5};
    const Model_f ca_lstmn = {"ca_lstmn",
                              ca_lstmn_reset,
                              ca_lstmn_step,
                              ca_lstmn_hidden,
                              NULL,
                              ca_lstmn_cell,
                              ca_lstmn_attention,
                              ca_lstmn_length,
                              ca_lstmn_self_check,
                              CA_LSTMN_IN_SIZE,
                              CA_LSTMN_HIDDEN_SIZE,
                              CA_LSTMN_CAPACITY,
                              CA_LSTMN_WINDOW,
                              1,
                              CA_LSTMN_GOLDEN_STEPS,
                              &ca_lstmn_golden_x[0][0],
                              &ca_lstmn_golden_h[0][0],
                              CA_LSTMN_GOLDEN_TOLERANCE,
                              1e-5};
    const Model_f ca_simple = {"ca_simple",
                               ca_simple_reset,
                               ca_simple_step,
                               ca_simple_hidden,
                               NULL,
                               NULL,
                               NULL,
                               ca_simple_length,
                               ca_simple_self_check,
                               CA_SIMPLE_IN_SIZE,
                               CA_SIMPLE_HIDDEN_SIZE,
                               0,
                               0,
                               0,
                               CA_SIMPLE_GOLDEN_STEPS,
                               &ca_simple_golden_x[0][0],
                               &ca_simple_golden_h[0][0],
                               CA_SIMPLE_GOLDEN_TOLERANCE,
                               1e-5};
    /* the plain cells (issue 33): the GRU has h only, the LSTM h and its cell */
    const Model_f ca_gru = {"ca_gru",
                            ca_gru_reset,
                            ca_gru_step,
                            ca_gru_hidden,
                            NULL,
                            NULL,
                            NULL,
                            ca_gru_length,
                            ca_gru_self_check,
                            CA_GRU_IN_SIZE,
                            CA_GRU_HIDDEN_SIZE,
                            0,
                            0,
                            0,
                            CA_GRU_GOLDEN_STEPS,
                            &ca_gru_golden_x[0][0],
                            &ca_gru_golden_h[0][0],
                            CA_GRU_GOLDEN_TOLERANCE,
                            1e-5};
    const Model_f ca_lstm = {"ca_lstm",
                             ca_lstm_reset,
                             ca_lstm_step,
                             ca_lstm_hidden,
                             NULL,
                             ca_lstm_cell,
                             NULL,
                             ca_lstm_length,
                             ca_lstm_self_check,
                             CA_LSTM_IN_SIZE,
                             CA_LSTM_HIDDEN_SIZE,
                             0,
                             0,
                             0,
                             CA_LSTM_GOLDEN_STEPS,
                             &ca_lstm_golden_x[0][0],
                             &ca_lstm_golden_h[0][0],
                             CA_LSTM_GOLDEN_TOLERANCE,
                             1e-5};
    const Model_d ca_sa_double = {"ca_sa_double",
                                  ca_sa_double_reset,
                                  ca_sa_double_step,
                                  ca_sa_double_hidden,
                                  ca_sa_double_context,
                                  NULL,
                                  ca_sa_double_attention,
                                  ca_sa_double_length,
                                  ca_sa_double_self_check,
                                  CA_SA_DOUBLE_IN_SIZE,
                                  CA_SA_DOUBLE_HIDDEN_SIZE,
                                  CA_SA_DOUBLE_CAPACITY,
                                  CA_SA_DOUBLE_WINDOW,
                                  0,
                                  CA_SA_DOUBLE_GOLDEN_STEPS,
                                  &ca_sa_double_golden_x[0][0],
                                  &ca_sa_double_golden_h[0][0],
                                  CA_SA_DOUBLE_GOLDEN_TOLERANCE,
                                  1e-12};
    /* q15 (--quantize int8): SelfAttentionRnn (DotAlign, Bounded; AdditiveAlign, Bounded: align_params), SimpleRnn */
    const Q15Model ca_q15_sa = {"ca_q15_sa",
                                ca_q15_sa_reset,
                                ca_q15_sa_step,
                                ca_q15_sa_hidden,
                                ca_q15_sa_context,
                                ca_q15_sa_attention,
                                ca_q15_sa_length,
                                ca_q15_sa_self_check,
                                CA_Q15_SA_IN_SIZE,
                                CA_Q15_SA_HIDDEN_SIZE,
                                CA_Q15_SA_CAPACITY,
                                CA_Q15_SA_GOLDEN_STEPS,
                                &ca_q15_sa_golden_x[0][0],
                                &ca_q15_sa_golden_xf[0][0],
                                CA_Q15_SA_X_SCALE,
                                &ca_q15_sa_golden_h[0][0],
                                &ca_q15_sa_golden_c[0][0]};
    /* the GRU cell under attention (SelfAttentionRnn<q15, ..., GruCell>, KeyQueryAlign, Bounded) */
    const Q15Model ca_q15_sa_gru = {"ca_q15_sa_gru",
                                    ca_q15_sa_gru_reset,
                                    ca_q15_sa_gru_step,
                                    ca_q15_sa_gru_hidden,
                                    ca_q15_sa_gru_context,
                                    ca_q15_sa_gru_attention,
                                    ca_q15_sa_gru_length,
                                    ca_q15_sa_gru_self_check,
                                    CA_Q15_SA_GRU_IN_SIZE,
                                    CA_Q15_SA_GRU_HIDDEN_SIZE,
                                    CA_Q15_SA_GRU_CAPACITY,
                                    CA_Q15_SA_GRU_GOLDEN_STEPS,
                                    &ca_q15_sa_gru_golden_x[0][0],
                                    &ca_q15_sa_gru_golden_xf[0][0],
                                    CA_Q15_SA_GRU_X_SCALE,
                                    &ca_q15_sa_gru_golden_h[0][0],
                                    &ca_q15_sa_gru_golden_c[0][0]};
    const Q15Model ca_q15_simple = {"ca_q15_simple",
                                    ca_q15_simple_reset,
                                    ca_q15_simple_step,
                                    ca_q15_simple_hidden,
                                    NULL,
                                    NULL,
                                    ca_q15_simple_length,
                                    ca_q15_simple_self_check,
                                    CA_Q15_SIMPLE_IN_SIZE,
                                    CA_Q15_SIMPLE_HIDDEN_SIZE,
                                    0,
                                    CA_Q15_SIMPLE_GOLDEN_STEPS,
                                    &ca_q15_simple_golden_x[0][0],
                                    &ca_q15_simple_golden_xf[0][0],
                                    CA_Q15_SIMPLE_X_SCALE,
                                    &ca_q15_simple_golden_h[0][0],
                                    NULL};
    const Q15Model ca_q15_additive = {"ca_q15_additive",
                                      ca_q15_additive_reset,
                                      ca_q15_additive_step,
                                      ca_q15_additive_hidden,
                                      ca_q15_additive_context,
                                      ca_q15_additive_attention,
                                      ca_q15_additive_length,
                                      ca_q15_additive_self_check,
                                      CA_Q15_ADDITIVE_IN_SIZE,
                                      CA_Q15_ADDITIVE_HIDDEN_SIZE,
                                      CA_Q15_ADDITIVE_CAPACITY,
                                      CA_Q15_ADDITIVE_GOLDEN_STEPS,
                                      &ca_q15_additive_golden_x[0][0],
                                      &ca_q15_additive_golden_xf[0][0],
                                      CA_Q15_ADDITIVE_X_SCALE,
                                      &ca_q15_additive_golden_h[0][0],
                                      &ca_q15_additive_golden_c[0][0]};
    /* The LSTMN: its cell (Q3.12) where the others have the context; its attention (over the tape before the step,
     * none at the first) is not checked here */
    const Q15Model ca_q15_lstmn = {"ca_q15_lstmn",
                                   ca_q15_lstmn_reset,
                                   ca_q15_lstmn_step,
                                   ca_q15_lstmn_hidden,
                                   ca_q15_lstmn_cell,
                                   NULL,
                                   ca_q15_lstmn_length,
                                   ca_q15_lstmn_self_check,
                                   CA_Q15_LSTMN_IN_SIZE,
                                   CA_Q15_LSTMN_HIDDEN_SIZE,
                                   CA_Q15_LSTMN_CAPACITY,
                                   CA_Q15_LSTMN_GOLDEN_STEPS,
                                   &ca_q15_lstmn_golden_x[0][0],
                                   &ca_q15_lstmn_golden_xf[0][0],
                                   CA_Q15_LSTMN_X_SCALE,
                                   &ca_q15_lstmn_golden_h[0][0],
                                   &ca_q15_lstmn_golden_c[0][0]};
    /* The q15 GRU (h only) and LSTM (its cell, Q3.12, where the others have the context) */
    const Q15Model ca_q15_gru = {"ca_q15_gru",
                                 ca_q15_gru_reset,
                                 ca_q15_gru_step,
                                 ca_q15_gru_hidden,
                                 NULL,
                                 NULL,
                                 ca_q15_gru_length,
                                 ca_q15_gru_self_check,
                                 CA_Q15_GRU_IN_SIZE,
                                 CA_Q15_GRU_HIDDEN_SIZE,
                                 0,
                                 CA_Q15_GRU_GOLDEN_STEPS,
                                 &ca_q15_gru_golden_x[0][0],
                                 &ca_q15_gru_golden_xf[0][0],
                                 CA_Q15_GRU_X_SCALE,
                                 &ca_q15_gru_golden_h[0][0],
                                 NULL};
    const Q15Model ca_q15_lstm = {"ca_q15_lstm",
                                  ca_q15_lstm_reset,
                                  ca_q15_lstm_step,
                                  ca_q15_lstm_hidden,
                                  ca_q15_lstm_cell,
                                  NULL,
                                  ca_q15_lstm_length,
                                  ca_q15_lstm_self_check,
                                  CA_Q15_LSTM_IN_SIZE,
                                  CA_Q15_LSTM_HIDDEN_SIZE,
                                  0,
                                  CA_Q15_LSTM_GOLDEN_STEPS,
                                  &ca_q15_lstm_golden_x[0][0],
                                  &ca_q15_lstm_golden_xf[0][0],
                                  CA_Q15_LSTM_X_SCALE,
                                  &ca_q15_lstm_golden_h[0][0],
                                  &ca_q15_lstm_golden_c[0][0]};
    /* What each header declares (the C compiler sees these checks, not only the glue). */
    expect(CA_SA_HAS_CONTEXT && !CA_SA_HAS_CELL && CA_SA_HAS_ATTENTION && !CA_SA_WINDOW && CA_SA_WINDOW_WINDOW &&
               CA_LSTMN_HAS_CELL && !CA_LSTMN_HAS_CONTEXT && CA_LSTMN_HAS_ATTENTION && !CA_SIMPLE_HAS_CONTEXT &&
               !CA_SIMPLE_HAS_CELL && !CA_SIMPLE_HAS_ATTENTION && CA_Q15_SA_HAS_CONTEXT &&
               !CA_Q15_SIMPLE_HAS_ATTENTION && CA_Q15_SA_OUTPUT_SCALE == 1.0f / 32768.0f && CA_Q15_LSTMN_HAS_CELL &&
               !CA_Q15_LSTMN_HAS_CONTEXT && CA_Q15_LSTMN_CELL_SCALE == 1.0f / 4096.0f,
           "headers", "the HAS_ macros", 0);
    expect(!CA_GRU_HAS_CONTEXT && !CA_GRU_HAS_CELL && !CA_GRU_HAS_ATTENTION && CA_LSTM_HAS_CELL &&
               !CA_LSTM_HAS_CONTEXT && !CA_LSTM_HAS_ATTENTION && !CA_Q15_GRU_HAS_CELL && CA_Q15_LSTM_HAS_CELL &&
               !CA_Q15_LSTM_HAS_ATTENTION && CA_Q15_LSTM_CELL_SCALE == 1.0f / 4096.0f,
           "headers", "the HAS_ macros of the GRU and the LSTM", 0);
    expect(CA_SA_GRU_HAS_CONTEXT && !CA_SA_GRU_HAS_CELL && CA_SA_GRU_HAS_ATTENTION && CA_SA_GRU_WINDOW &&
               CA_SA_GRU_CAPACITY == 4 && CA_Q15_SA_GRU_HAS_CONTEXT && !CA_Q15_SA_GRU_HAS_CELL &&
               CA_Q15_SA_GRU_HAS_ATTENTION && CA_Q15_SA_GRU_OUTPUT_SCALE == 1.0f / 32768.0f,
           "headers", "the HAS_ macros of the GRU cell under attention", 0);
    expect(SARNN_STATUS_OK == 0 && SARNN_STATUS_MEMORY_FULL == 1 && SARNN_STATUS_NULL_INPUT == 2 &&
               SARNN_STATUS_NON_FINITE_INPUT == 3 && SARNN_STATUS_NON_FINITE_RESULT == 7,
           "headers", "SARNN_STATUS_* (docs/c-api.md)", 0);
    check_model_f(&ca_sa);
    check_model_f(&ca_sa_window);
    check_model_f(&ca_lstmn);
    check_model_f(&ca_simple);
    check_model_f(&ca_gru);
    check_model_f(&ca_lstm);
    check_model_f(&ca_sa_gru);
    check_model_d(&ca_sa_double);
    check_q15(&ca_q15_sa);
    check_q15(&ca_q15_simple);
    check_q15(&ca_q15_additive);
    check_q15(&ca_q15_lstmn);
    check_q15(&ca_q15_gru);
    check_q15(&ca_q15_lstm);
    check_q15(&ca_q15_sa_gru);
    expect(c_api_copy_checks() == 0, "copy_check.cpp", "copy functions and view lifetime against the C++ models", 0);
    printf("%d passed, %d failed\n", g_passed, g_failed);
    return g_failed == 0 ? 0 : 1;
}
