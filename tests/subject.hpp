// tests/subject.hpp: the one harness of the model tests. A model under test (any SimpleRnn, SelfAttentionRnn with
// any align and memory, Lstmn) behind a small virtual interface, so that the checks of model_checks.hpp
// (reference runs, reset, full memory, bad input, the std::array overload) are compiled once instead of once
// per model shape. Only drive_subject<Model>() (one function) is instantiated per shape: that keeps the suite quick
// to build, also for the cross compilers.
#ifndef SARNN_TESTS_SUBJECT_HPP
#define SARNN_TESTS_SUBJECT_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <type_traits>
#include <vector>

#include "record.hpp"
#include "reference.hpp"
#include "reference_family.hpp"
#include "shared/aligns.hpp"
#include "support.hpp"
#include "trace_checks.hpp"

namespace test {

class Subject {
public:
    virtual ~Subject() = default;
    virtual std::size_t in() const = 0;
    virtual std::size_t hidden() const = 0;
    /// Capacity of the memory, 0 for SimpleRnn (no memory).
    virtual std::size_t capacity() const = 0;
    /// A Window memory (keeps the newest Capacity states; never refuses a step).
    virtual bool window() const = 0;
    virtual Record state() const = 0;
    /// step(const T*) with x converted to T (x must hold in() values; exact when they came from T)
    virtual sarnn::Status step(const ref::Vec& x) = 0;
    /// step(const std::array<T, In>&)
    virtual sarnn::Status step_array(const ref::Vec& x) = 0;
    /// step(nullptr)
    virtual sarnn::Status step_null() = 0;
    virtual void reset() = 0;
    /// The address of the params the model refers to.
    virtual const void* params_address() const = 0;
    /// Checks a run of this model from the start against its double reference (trace_checks.hpp), with the
    /// capacity and memory of spec filled in from the model.
    virtual void check_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, TraceSpec spec,
                             std::vector<ref::Vec>& scalar_trace) const = 0;

    Record step_and_record(const ref::Vec& x) {
        const sarnn::Status s = step(x);
        Record r = state();
        r.status = s;
        return r;
    }
};

/// Which model a type is, its memory, and the params of its align.
enum class Which { simple, attention, lstmn };
template <class Model>
struct ModelKind;
template <class T, std::size_t In, std::size_t Hidden, class Set>
struct ModelKind<sarnn::SimpleRnn<T, In, Hidden, Set>> {
    static constexpr Which which = Which::simple;
    static constexpr bool window = false;
    static constexpr std::size_t capacity = 0;
    static constexpr bool align_has_params = false;
    struct AlignParams {};
};
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, class Align, class Memory, class Set>
struct ModelKind<sarnn::SelfAttentionRnn<T, In, Hidden, Capacity, Align, Memory, Set>> {
    static constexpr Which which = Which::attention;
    static constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    static constexpr std::size_t capacity = Capacity;
    using Traits = kit::AlignTraits<Align>;
    static constexpr bool align_has_params = Traits::has_params;
    using AlignParams = typename Traits::template Params<T, Hidden>;
};
template <class T, std::size_t In, std::size_t Hidden, std::size_t Capacity, std::size_t K, class Memory, class Set>
struct ModelKind<sarnn::Lstmn<T, In, Hidden, Capacity, K, Memory, Set>> {
    static constexpr Which which = Which::lstmn;
    static constexpr bool window = std::is_same_v<Memory, sarnn::Window>;
    static constexpr std::size_t capacity = Capacity;
    static constexpr bool align_has_params = false;
    struct AlignParams {};
};

/// What DrivenSubject asks of a model: drive_subject<Model>() does it.
enum class SubjectOp { create, destroy, state, step, step_array, step_null, reset, params, check_trace };

/// The arguments and results of one SubjectOp.
struct SubjectCall {
    void* model = nullptr;
    const void* params = nullptr;        // create: the model's params
    const void* align_params = nullptr;  // create: the align's params (a SelfAttentionRnn whose align has them)
    const void* x = nullptr;             // step, step_array: In values of T
    sarnn::Status status = sarnn::Status::ok;
    Record* record = nullptr;  // state
    const void* address = nullptr;
    // check_trace
    const std::vector<Record>* trace = nullptr;
    const std::vector<ref::Vec>* xs = nullptr;
    const TraceSpec* spec = nullptr;
    std::vector<ref::Vec>* scalar_trace = nullptr;
};

/// Everything DrivenSubject does to a Model, in one function per model type: the checks (model_checks.cpp) are
/// compiled once, and each model shape adds this one function (a class of virtual functions per shape would add a
/// dozen: the suite's build time goes by the number of functions).
template <class Model>
void drive_subject(SubjectOp op, SubjectCall& c) {
    using T = typename Model::value_type;
    using Kind = ModelKind<Model>;
    auto* m = static_cast<Model*>(c.model);
    const auto& params = *static_cast<const typename Model::Params*>(c.params);
    switch (op) {
    case SubjectOp::create:
        if constexpr (Kind::align_has_params)
            c.model = new Model(params, *static_cast<const typename Kind::AlignParams*>(c.align_params));
        else
            c.model = new Model(params);
        break;
    case SubjectOp::destroy: delete m; break;
    case SubjectOp::state: *c.record = record(*m, sarnn::Status::ok); break;
    case SubjectOp::step: c.status = m->step(static_cast<const T*>(c.x)); break;
    case SubjectOp::step_array: {
        std::array<T, Model::in_size> xa{};
        std::memcpy(xa.data(), c.x, sizeof(xa));
        c.status = m->step(xa);
        break;
    }
    case SubjectOp::step_null: c.status = m->step(static_cast<const T*>(nullptr)); break;
    case SubjectOp::reset: m->reset(); break;
    case SubjectOp::params: c.address = &m->params(); break;
    case SubjectOp::check_trace: {
        TraceSpec spec = *c.spec;
        spec.capacity = Kind::capacity;
        spec.window = Kind::window;
        if constexpr (Kind::which == Which::simple) {
            check_simple_trace(*c.trace, *c.xs, ref::weights_of(params, Model::in_size, Model::hidden_size), spec,
                               *c.scalar_trace);
        } else if constexpr (Kind::which == Which::lstmn) {
            check_lstmn_trace(*c.trace, *c.xs, ref::lstmn_weights_of(params), spec, *c.scalar_trace);
        } else if constexpr (Kind::align_has_params) {
            check_sar_trace(*c.trace, *c.xs, ref::weights_of(params, Model::in_size, Model::hidden_size),
                            Kind::Traits::reference(*static_cast<const typename Kind::AlignParams*>(c.align_params)),
                            spec, *c.scalar_trace);
        } else {
            check_sar_trace(*c.trace, *c.xs, ref::weights_of(params, Model::in_size, Model::hidden_size),
                            Kind::Traits::reference(kit::NoParams{}), spec, *c.scalar_trace);
        }
        break;
    }
    }
}

/// A Subject on any model: what it does, drive (drive_subject<Model>) does.
class DrivenSubject final : public Subject {
public:
    using Drive = void (*)(SubjectOp, SubjectCall&);
    struct Shape {
        std::size_t in, hidden, capacity;
        bool window, is_float;
    };
    /// A model on `p`, and for a SelfAttentionRnn whose align has params, on `*ap` too (both must outlive this).
    DrivenSubject(Drive drive, Shape shape, const void* p, const void* ap)
        : drive_(drive), shape_(shape), params_(p), align_params_(ap) {
        SubjectCall c = call();
        drive_(SubjectOp::create, c);
        model_ = c.model;
    }
    ~DrivenSubject() override {
        SubjectCall c = call();
        drive_(SubjectOp::destroy, c);
    }
    DrivenSubject(const DrivenSubject&) = delete;
    DrivenSubject& operator=(const DrivenSubject&) = delete;

    std::size_t in() const override { return shape_.in; }
    std::size_t hidden() const override { return shape_.hidden; }
    std::size_t capacity() const override { return shape_.capacity; }
    bool window() const override { return shape_.window; }
    Record state() const override {
        Record r;
        SubjectCall c = call();
        c.record = &r;
        drive_(SubjectOp::state, c);
        return r;
    }
    sarnn::Status step(const ref::Vec& x) override { return with_input(SubjectOp::step, x); }
    sarnn::Status step_array(const ref::Vec& x) override { return with_input(SubjectOp::step_array, x); }
    sarnn::Status step_null() override {
        SubjectCall c = call();
        drive_(SubjectOp::step_null, c);
        return c.status;
    }
    void reset() override {
        SubjectCall c = call();
        drive_(SubjectOp::reset, c);
    }
    const void* params_address() const override {
        SubjectCall c = call();
        drive_(SubjectOp::params, c);
        return c.address;
    }
    void check_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, TraceSpec spec,
                     std::vector<ref::Vec>& scalar_trace) const override {
        SubjectCall c = call();
        c.trace = &trace;
        c.xs = &xs;
        c.spec = &spec;
        c.scalar_trace = &scalar_trace;
        drive_(SubjectOp::check_trace, c);
    }

private:
    SubjectCall call() const {
        SubjectCall c;
        c.model = model_;
        c.params = params_;
        c.align_params = align_params_;
        return c;
    }
    /// x converted to T (x must hold in() values; exact when they came from T); step_array reads In of them.
    sarnn::Status with_input(SubjectOp op, const ref::Vec& x) {
        SubjectCall c = call();
        std::vector<float> xf;
        if (shape_.is_float) {
            xf.resize(x.size());
            for (std::size_t k = 0; k < x.size(); ++k) xf[k] = static_cast<float>(x[k]);
            c.x = xf.data();
        } else {
            c.x = x.data();
        }
        drive_(op, c);
        return c.status;
    }

    Drive drive_;
    Shape shape_;
    const void* params_ = nullptr;
    const void* align_params_ = nullptr;
    void* model_ = nullptr;
};

/// A DrivenSubject on Model (ap: the align's params, for a SelfAttentionRnn whose align has them).
template <class Model>
std::unique_ptr<Subject> make_subject(const typename Model::Params& p,
                                      const typename ModelKind<Model>::AlignParams* ap = nullptr) {
    using Kind = ModelKind<Model>;
    static_assert(std::is_same_v<typename Model::value_type, float> ||
                  std::is_same_v<typename Model::value_type, double>);
    const DrivenSubject::Shape shape{Model::in_size, Model::hidden_size, Kind::capacity, Kind::window,
                                     std::is_same_v<typename Model::value_type, float>};
    return std::make_unique<DrivenSubject>(&drive_subject<Model>, shape, &p, ap);
}

/// Makes a fresh model (a new one on the same params each call).
using Factory = std::function<std::unique_ptr<Subject>()>;

template <class Model>
Factory factory(const typename Model::Params& p) {
    return [&p]() { return make_subject<Model>(p); };
}
template <class Model>
Factory factory(const typename Model::Params& p, const typename ModelKind<Model>::AlignParams& ap) {
    return [&p, &ap]() { return make_subject<Model>(p, &ap); };
}

}  // namespace test

#endif
