// tests/driven.hpp: a float or double model (Gru, SelfAttentionRnn, ...) behind one function per model type. The
// checks of test_gru.cpp and test_cell.cpp are plain functions on test::Driven, compiled once; each model type they
// check adds only drive<Model>() (a switch over what the checks do to a model) to the build. A class with a virtual
// function per operation costs a dozen functions per type, and the suite checks hundreds of types (shapes x types x
// kernel sets): the compiler's time goes by the number of functions.
#ifndef SARNN_TESTS_DRIVEN_HPP
#define SARNN_TESTS_DRIVEN_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace test {

/// What a check does to a model (drive<Model>() does it).
enum class Op { create, destroy, step, step_array, step_null, reset, length, attended, params, view, run };
/// Which of the model's vectors Op::view shows (context and attention: SelfAttentionRnn).
enum class Shown { hidden, context, attention };

template <class M, class = void>
struct has_attention : std::false_type {};
template <class M>
struct has_attention<
    M, std::void_t<decltype(std::declval<const M&>().context()), decltype(std::declval<const M&>().attended())>>
    : std::true_type {};

/// The arguments and results of one Op.
struct Call {
    void* model = nullptr;
    const void* in = nullptr;  // Op::create: the params; Op::step, step_array, run: the inputs (T values)
    void* out = nullptr;       // Op::run: the outputs (T values)
    std::size_t n = 0;         // Op::run: steps
    sarnn::Emit emit = sarnn::Emit::hidden;
    Shown shown = Shown::hidden;
    sarnn::Status status = sarnn::Status::ok;
    sarnn::RunResult result{};
    std::uint64_t count = 0;        // Op::length, attended
    const void* address = nullptr;  // Op::params: the params the model refers to; Op::view: the data
    std::size_t size = 0;           // Op::view: the number of values
};

template <class Model>
void drive(Op op, Call& c) {
    using T = typename Model::value_type;
    auto* m = static_cast<Model*>(c.model);
    switch (op) {
    case Op::create: c.model = new Model(*static_cast<const typename Model::Params*>(c.in)); break;
    case Op::destroy: delete m; break;
    case Op::step: c.status = m->step(static_cast<const T*>(c.in)); break;
    case Op::step_array: {
        std::array<T, Model::in_size> xa{};
        std::memcpy(xa.data(), c.in, sizeof(xa));
        c.status = m->step(xa);
        break;
    }
    case Op::step_null: c.status = m->step(static_cast<const T*>(nullptr)); break;
    case Op::reset: m->reset(); break;
    case Op::length: c.count = m->length(); break;
    case Op::attended:
        if constexpr (has_attention<Model>::value) c.count = m->attended();
        break;
    case Op::params: c.address = &m->params(); break;
    case Op::view: {
        sarnn::View<T> v = m->hidden();
        if constexpr (has_attention<Model>::value) {
            if (c.shown == Shown::context) v = m->context();
            if (c.shown == Shown::attention) v = m->attention();
        }
        c.address = v.data();
        c.size = v.size();
        break;
    }
    case Op::run: c.result = m->run(static_cast<const T*>(c.in), c.n, static_cast<T*>(c.out), c.emit); break;
    }
}

/// A model made by drive<Model> on params that outlive it. Inputs are doubles that T holds exactly (converted to T on
/// the way in); outputs are T's values in double.
class Driven {
public:
    using Drive = void (*)(Op, Call&);
    Driven(Drive drive, bool is_float, const void* params) : drive_(drive), is_float_(is_float) {
        Call c;
        c.in = params;
        drive_(Op::create, c);
        model_ = c.model;
    }
    ~Driven() { call(Op::destroy); }
    Driven(const Driven&) = delete;
    Driven& operator=(const Driven&) = delete;

    /// step(const T*)
    sarnn::Status step(const std::vector<double>& x) { return with_input(Op::step, x).status; }
    /// step(const std::array<T, In>&) (x holds In values)
    sarnn::Status step_array(const std::vector<double>& x) { return with_input(Op::step_array, x).status; }
    /// step(nullptr)
    sarnn::Status step_null() { return call(Op::step_null).status; }
    void reset() { call(Op::reset); }
    std::uint64_t length() { return call(Op::length).count; }
    std::size_t attended() { return static_cast<std::size_t>(call(Op::attended).count); }
    const void* params_address() { return call(Op::params).address; }
    std::vector<double> hidden() { return view(Shown::hidden); }
    std::vector<double> context() { return view(Shown::context); }
    std::vector<double> attention() { return view(Shown::attention); }
    /// run(xs, steps, out, emit), out sized by the caller
    sarnn::RunResult run(const std::vector<double>& xs, std::size_t steps, std::vector<double>& out, sarnn::Emit emit) {
        if (is_float_) return run_as<float>(xs, steps, out, emit);
        return run_as<double>(xs, steps, out, emit);
    }

private:
    Call call(Op op) {
        Call c;
        c.model = model_;
        drive_(op, c);
        return c;
    }
    Call with_input(Op op, const std::vector<double>& x) {
        Call c;
        c.model = model_;
        std::vector<float> xf;
        if (is_float_) {
            xf.assign(x.begin(), x.end());  // exact: x holds float values (or NaN, ±inf)
            c.in = xf.data();
        } else {
            c.in = x.data();
        }
        drive_(op, c);
        return c;
    }
    std::vector<double> view(Shown which) {
        Call c;
        c.model = model_;
        c.shown = which;
        drive_(Op::view, c);
        std::vector<double> out(c.size);
        for (std::size_t k = 0; k < c.size; ++k)
            out[k] = is_float_ ? static_cast<double>(static_cast<const float*>(c.address)[k])
                               : static_cast<const double*>(c.address)[k];
        return out;
    }
    template <class T>
    sarnn::RunResult run_as(const std::vector<double>& xs, std::size_t steps, std::vector<double>& out,
                            sarnn::Emit emit) {
        std::vector<T> xt(xs.begin(), xs.end()), ot(out.size());
        Call c;
        c.model = model_;
        c.in = xt.data();
        c.out = ot.data();
        c.n = steps;
        c.emit = emit;
        drive_(Op::run, c);
        for (std::size_t k = 0; k < ot.size(); ++k) out[k] = static_cast<double>(ot[k]);
        return c.result;
    }

    Drive drive_;
    bool is_float_;
    void* model_ = nullptr;
};

}  // namespace test

#endif
