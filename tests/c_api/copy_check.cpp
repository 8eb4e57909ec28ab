// tests/c_api/copy_check.cpp: the view pointers' lifetime and the copy functions of the generated C API (X.h, X.cpp),
// checked against a second C++ model of each header (X.hpp) stepped alongside on the same inputs. c_api_test.c (C99)
// calls c_api_copy_checks() once; this file is C++ only to build that independent model.
//
// For each model, per golden step: X_copy_hidden() (and X_copy_context(), X_copy_cell(), X_copy_attention() where
// the model has them) return the count and copy, bit for bit, what the C++ model's views show; the pointers of the
// views show the same values. docs/c-api.md's contract: a pointer taken after a step stays valid, with the same
// values, over a refused step (a NULL input); after a step that returns ok, the
// function called again shows the new values (the copy made before that step keeps the old ones). NULL out: 0,
// nothing copied.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>
#include <utility>

#include "c_api_golden.h"
#include "ca_gru.h"
#include "ca_gru.hpp"
#include "ca_lstm.h"
#include "ca_lstm.hpp"
#include "ca_lstmn.h"
#include "ca_lstmn.hpp"
#include "ca_q15_additive.h"
#include "ca_q15_additive.hpp"
#include "ca_q15_gru.h"
#include "ca_q15_gru.hpp"
#include "ca_q15_lstm.h"
#include "ca_q15_lstm.hpp"
#include "ca_q15_lstmn.h"
#include "ca_q15_lstmn.hpp"
#include "ca_q15_sa.h"
#include "ca_q15_sa.hpp"
#include "ca_q15_sa_gru.h"
#include "ca_q15_sa_gru.hpp"
#include "ca_q15_simple.h"
#include "ca_q15_simple.hpp"
#include "ca_sa.h"
#include "ca_sa.hpp"
#include "ca_sa_double.h"
#include "ca_sa_double.hpp"
#include "ca_sa_gru.h"
#include "ca_sa_gru.hpp"
#include "ca_sa_window.h"
#include "ca_sa_window.hpp"
#include "ca_simple.h"
#include "ca_simple.hpp"

extern "C" int c_api_copy_checks(void);

namespace {

int g_failed = 0;

void expect(bool ok, const char* model, const char* what, std::size_t step) {
    if (ok) return;
    ++g_failed;
    std::printf("FAIL %s step %u: %s\n", model, static_cast<unsigned>(step), what);
}

/// One view of the C API: its pointer function (the attention's takes n) and its copy function; null when the model
/// has none.
template <class V>
struct CView {
    const V* (*get)();
    std::size_t (*copy)(V*);
};
template <class V>
struct CApi {
    const char* name;
    void (*reset)();
    int (*step)(const V*);
    CView<V> hidden, context, cell;
    const V* (*attention)(std::size_t*);
    std::size_t (*copy_attention)(V*);
    std::uint64_t (*length)();
};

constexpr std::size_t kMax = 64;

/// The values a view shows, as bytes (q15 and int16_t, float and float compare alike).
template <class A, class B>
bool same(const A* a, const B* b, std::size_t n) {
    static_assert(sizeof(A) == sizeof(B), "one value type");
    return n == 0 || std::memcmp(a, b, n * sizeof(A)) == 0;
}

template <class M, class = void>
struct has_context : std::false_type {};
template <class M>
struct has_context<M, std::void_t<decltype(std::declval<const M&>().context())>> : std::true_type {};
template <class M, class = void>
struct has_cell : std::false_type {};
template <class M>
struct has_cell<M, std::void_t<decltype(std::declval<const M&>().cell())>> : std::true_type {};
template <class M, class = void>
struct has_attention : std::false_type {};
template <class M>
struct has_attention<M, std::void_t<decltype(std::declval<const M&>().attention())>> : std::true_type {};

/// A view's pointer and copy against the C++ model's view w (n values).
template <class V, class W>
void check_view(const char* name, const CView<V>& v, const W& w, std::size_t n, const char* what, std::size_t t) {
    V out[kMax];
    expect(v.get != nullptr && v.copy(out) == n && same(out, w.data(), n) && same(v.get(), w.data(), n), name, what, t);
    expect(v.copy(nullptr) == 0, name, "a copy to NULL returns 0", t);
}

/// The C API `c` and the C++ model `m` (the same header's Model, its own params), stepped over xs[steps][In].
template <class V, class M, class X>
void check(const CApi<V>& c, M& m, const X* xs, std::size_t steps) {
    constexpr std::size_t in = M::in_size, hidden = M::hidden_size;
    V out[kMax], kept[kMax];
    c.reset();
    m.reset();
    expect(c.hidden.copy(nullptr) == 0, c.name, "copy_hidden(NULL) returns 0", 0);
    for (std::size_t t = 0; t < steps; ++t) {
        const X* x = xs + t * in;
        // a pointer taken before the step, and a copy
        const V* before = c.hidden.get();
        expect(c.hidden.copy(kept) == hidden, c.name, "copy_hidden() returns X_HIDDEN_SIZE", t);
        // a refused step: the kept pointer still valid, its values unchanged
        expect(c.step(nullptr) == SARNN_STATUS_NULL_INPUT, c.name, "NULL input refused", t);
        expect(c.hidden.get() == before && same(before, kept, hidden), c.name,
               "a refused step: the kept pointer valid, its values unchanged", t);
        // the step: the C API and the C++ model alike
        V xv[kMax];
        for (std::size_t k = 0; k < in; ++k) std::memcpy(&xv[k], &x[k], sizeof(V));
        typename M::value_type xm[kMax];
        std::memcpy(xm, x, in * sizeof(V));
        expect(c.step(xv) == SARNN_STATUS_OK && m.step(xm) == sarnn::Status::ok, c.name, "step ok", t);
        expect(c.length() == t + 1 && m.length() == t + 1, c.name, "length()", t);
        // the copy made before the step keeps the old values; the function called again shows the model's
        expect(c.hidden.copy(out) == hidden && same(out, m.hidden().data(), hidden), c.name,
               "copy_hidden() = the C++ model's h, bit for bit", t);
        expect(same(c.hidden.get(), m.hidden().data(), hidden), c.name, "hidden() called again = the new h", t);
        expect(t == 0 || !same(kept, out, hidden), c.name, "the copy before the step kept the old h", t);
        if constexpr (has_context<M>::value) check_view(c.name, c.context, m.context(), hidden, "context", t);
        if constexpr (has_cell<M>::value) check_view(c.name, c.cell, m.cell(), hidden, "cell", t);
        if constexpr (has_attention<M>::value) {
            std::size_t n = 99;
            const V* a = c.attention(&n);
            const auto want = m.attention();
            expect(n == want.size() && same(a, want.data(), n), c.name, "attention() = the C++ model's", t);
            expect(c.copy_attention(out) == want.size() && same(out, want.data(), n), c.name,
                   "copy_attention() = the C++ model's, bit for bit", t);
            expect(c.copy_attention(nullptr) == 0, c.name, "copy_attention(NULL) returns 0", t);
        }
    }
    // reset(): the function called again shows h = 0
    c.reset();
    expect(c.hidden.copy(out) == hidden, c.name, "copy_hidden() after reset()", 0);
    bool zero = true;
    for (std::size_t k = 0; k < hidden; ++k) zero = zero && out[k] == V{};
    expect(zero && c.length() == 0, c.name, "reset(): h = 0, length 0", 0);
}

// the second models: static storage (no function-local statics: no guards on bare metal)
ca_sa::Model g_ca_sa(ca_sa::params, ca_sa::align_params);
ca_sa_window::Model g_ca_sa_window(ca_sa_window::params);
ca_lstmn::Model g_ca_lstmn(ca_lstmn::params);
ca_simple::Model g_ca_simple(ca_simple::params);
ca_sa_double::Model g_ca_sa_double(ca_sa_double::params);
ca_q15_sa::Model g_ca_q15_sa(ca_q15_sa::params);
ca_q15_simple::Model g_ca_q15_simple(ca_q15_simple::params);
ca_q15_additive::Model g_ca_q15_additive(ca_q15_additive::params, ca_q15_additive::align_params);
ca_q15_lstmn::Model g_ca_q15_lstmn(ca_q15_lstmn::params);
ca_gru::Model g_ca_gru(ca_gru::params);
ca_lstm::Model g_ca_lstm(ca_lstm::params);
ca_q15_gru::Model g_ca_q15_gru(ca_q15_gru::params);
ca_q15_lstm::Model g_ca_q15_lstm(ca_q15_lstm::params);
ca_sa_gru::Model g_ca_sa_gru(ca_sa_gru::params, ca_sa_gru::align_params);
ca_q15_sa_gru::Model g_ca_q15_sa_gru(ca_q15_sa_gru::params, ca_q15_sa_gru::align_params);

}  // namespace

int c_api_copy_checks(void) {
    {
        ca_sa::Model& m = g_ca_sa;
        check(CApi<float>{"ca_sa",
                          ca_sa_reset,
                          ca_sa_step,
                          {ca_sa_hidden, ca_sa_copy_hidden},
                          {ca_sa_context, ca_sa_copy_context},
                          {nullptr, nullptr},
                          ca_sa_attention,
                          ca_sa_copy_attention,
                          ca_sa_length},
              m, &ca_sa_golden_x[0][0], CA_SA_GOLDEN_STEPS);
    }
    {
        ca_sa_window::Model& m = g_ca_sa_window;
        check(CApi<float>{"ca_sa_window",
                          ca_sa_window_reset,
                          ca_sa_window_step,
                          {ca_sa_window_hidden, ca_sa_window_copy_hidden},
                          {ca_sa_window_context, ca_sa_window_copy_context},
                          {nullptr, nullptr},
                          ca_sa_window_attention,
                          ca_sa_window_copy_attention,
                          ca_sa_window_length},
              m, &ca_sa_window_golden_x[0][0], CA_SA_WINDOW_GOLDEN_STEPS);
    }
    {
        ca_lstmn::Model& m = g_ca_lstmn;
        check(CApi<float>{"ca_lstmn",
                          ca_lstmn_reset,
                          ca_lstmn_step,
                          {ca_lstmn_hidden, ca_lstmn_copy_hidden},
                          {nullptr, nullptr},
                          {ca_lstmn_cell, ca_lstmn_copy_cell},
                          ca_lstmn_attention,
                          ca_lstmn_copy_attention,
                          ca_lstmn_length},
              m, &ca_lstmn_golden_x[0][0], CA_LSTMN_GOLDEN_STEPS);
    }
    {
        ca_simple::Model& m = g_ca_simple;
        check(CApi<float>{"ca_simple",
                          ca_simple_reset,
                          ca_simple_step,
                          {ca_simple_hidden, ca_simple_copy_hidden},
                          {nullptr, nullptr},
                          {nullptr, nullptr},
                          nullptr,
                          nullptr,
                          ca_simple_length},
              m, &ca_simple_golden_x[0][0], CA_SIMPLE_GOLDEN_STEPS);
    }
    {
        ca_sa_double::Model& m = g_ca_sa_double;
        check(CApi<double>{"ca_sa_double",
                           ca_sa_double_reset,
                           ca_sa_double_step,
                           {ca_sa_double_hidden, ca_sa_double_copy_hidden},
                           {ca_sa_double_context, ca_sa_double_copy_context},
                           {nullptr, nullptr},
                           ca_sa_double_attention,
                           ca_sa_double_copy_attention,
                           ca_sa_double_length},
              m, &ca_sa_double_golden_x[0][0], CA_SA_DOUBLE_GOLDEN_STEPS);
    }
    {
        ca_q15_sa::Model& m = g_ca_q15_sa;
        check(CApi<std::int16_t>{"ca_q15_sa",
                                 ca_q15_sa_reset,
                                 ca_q15_sa_step,
                                 {ca_q15_sa_hidden, ca_q15_sa_copy_hidden},
                                 {ca_q15_sa_context, ca_q15_sa_copy_context},
                                 {nullptr, nullptr},
                                 ca_q15_sa_attention,
                                 ca_q15_sa_copy_attention,
                                 ca_q15_sa_length},
              m, &ca_q15_sa_golden_x[0][0], CA_Q15_SA_GOLDEN_STEPS);
    }
    {
        ca_q15_simple::Model& m = g_ca_q15_simple;
        check(CApi<std::int16_t>{"ca_q15_simple",
                                 ca_q15_simple_reset,
                                 ca_q15_simple_step,
                                 {ca_q15_simple_hidden, ca_q15_simple_copy_hidden},
                                 {nullptr, nullptr},
                                 {nullptr, nullptr},
                                 nullptr,
                                 nullptr,
                                 ca_q15_simple_length},
              m, &ca_q15_simple_golden_x[0][0], CA_Q15_SIMPLE_GOLDEN_STEPS);
    }
    {
        ca_q15_additive::Model& m = g_ca_q15_additive;
        check(CApi<std::int16_t>{"ca_q15_additive",
                                 ca_q15_additive_reset,
                                 ca_q15_additive_step,
                                 {ca_q15_additive_hidden, ca_q15_additive_copy_hidden},
                                 {ca_q15_additive_context, ca_q15_additive_copy_context},
                                 {nullptr, nullptr},
                                 ca_q15_additive_attention,
                                 ca_q15_additive_copy_attention,
                                 ca_q15_additive_length},
              m, &ca_q15_additive_golden_x[0][0], CA_Q15_ADDITIVE_GOLDEN_STEPS);
    }
    {
        ca_q15_lstmn::Model& m = g_ca_q15_lstmn;
        check(CApi<std::int16_t>{"ca_q15_lstmn",
                                 ca_q15_lstmn_reset,
                                 ca_q15_lstmn_step,
                                 {ca_q15_lstmn_hidden, ca_q15_lstmn_copy_hidden},
                                 {nullptr, nullptr},
                                 {ca_q15_lstmn_cell, ca_q15_lstmn_copy_cell},
                                 ca_q15_lstmn_attention,
                                 ca_q15_lstmn_copy_attention,
                                 ca_q15_lstmn_length},
              m, &ca_q15_lstmn_golden_x[0][0], CA_Q15_LSTMN_GOLDEN_STEPS);
    }
    {
        ca_gru::Model& m = g_ca_gru;
        check(CApi<float>{"ca_gru",
                          ca_gru_reset,
                          ca_gru_step,
                          {ca_gru_hidden, ca_gru_copy_hidden},
                          {nullptr, nullptr},
                          {nullptr, nullptr},
                          nullptr,
                          nullptr,
                          ca_gru_length},
              m, &ca_gru_golden_x[0][0], CA_GRU_GOLDEN_STEPS);
    }
    {
        ca_lstm::Model& m = g_ca_lstm;
        check(CApi<float>{"ca_lstm",
                          ca_lstm_reset,
                          ca_lstm_step,
                          {ca_lstm_hidden, ca_lstm_copy_hidden},
                          {nullptr, nullptr},
                          {ca_lstm_cell, ca_lstm_copy_cell},
                          nullptr,
                          nullptr,
                          ca_lstm_length},
              m, &ca_lstm_golden_x[0][0], CA_LSTM_GOLDEN_STEPS);
    }
    {
        ca_q15_gru::Model& m = g_ca_q15_gru;
        check(CApi<std::int16_t>{"ca_q15_gru",
                                 ca_q15_gru_reset,
                                 ca_q15_gru_step,
                                 {ca_q15_gru_hidden, ca_q15_gru_copy_hidden},
                                 {nullptr, nullptr},
                                 {nullptr, nullptr},
                                 nullptr,
                                 nullptr,
                                 ca_q15_gru_length},
              m, &ca_q15_gru_golden_x[0][0], CA_Q15_GRU_GOLDEN_STEPS);
    }
    {
        ca_q15_lstm::Model& m = g_ca_q15_lstm;
        check(CApi<std::int16_t>{"ca_q15_lstm",
                                 ca_q15_lstm_reset,
                                 ca_q15_lstm_step,
                                 {ca_q15_lstm_hidden, ca_q15_lstm_copy_hidden},
                                 {nullptr, nullptr},
                                 {ca_q15_lstm_cell, ca_q15_lstm_copy_cell},
                                 nullptr,
                                 nullptr,
                                 ca_q15_lstm_length},
              m, &ca_q15_lstm_golden_x[0][0], CA_Q15_LSTM_GOLDEN_STEPS);
    }
    std::printf("copy_check: %d failed\n", g_failed);
    {
        ca_sa_gru::Model& m = g_ca_sa_gru;
        check(CApi<float>{"ca_sa_gru",
                          ca_sa_gru_reset,
                          ca_sa_gru_step,
                          {ca_sa_gru_hidden, ca_sa_gru_copy_hidden},
                          {ca_sa_gru_context, ca_sa_gru_copy_context},
                          {nullptr, nullptr},
                          ca_sa_gru_attention,
                          ca_sa_gru_copy_attention,
                          ca_sa_gru_length},
              m, &ca_sa_gru_golden_x[0][0], CA_SA_GRU_GOLDEN_STEPS);
    }
    {
        ca_q15_sa_gru::Model& m = g_ca_q15_sa_gru;
        check(CApi<std::int16_t>{"ca_q15_sa_gru",
                                 ca_q15_sa_gru_reset,
                                 ca_q15_sa_gru_step,
                                 {ca_q15_sa_gru_hidden, ca_q15_sa_gru_copy_hidden},
                                 {ca_q15_sa_gru_context, ca_q15_sa_gru_copy_context},
                                 {nullptr, nullptr},
                                 ca_q15_sa_gru_attention,
                                 ca_q15_sa_gru_copy_attention,
                                 ca_q15_sa_gru_length},
              m, &ca_q15_sa_gru_golden_x[0][0], CA_Q15_SA_GRU_GOLDEN_STEPS);
    }
    return g_failed;
}
