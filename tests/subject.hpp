// tests/subject.hpp: the one harness of the model tests. A model under test (any SimpleRnn, SelfAttentionRnn with
// any align and memory, Lstmn) behind a small virtual interface, so that the checks of model_checks.hpp
// (reference runs, reset, full memory, bad input, the std::array overload) are compiled once instead of once
// per model shape. Only ModelSubject<Model> is instantiated per shape: that keeps the suite quick to build, also
// for the cross compilers.
#ifndef SARNN_TESTS_SUBJECT_HPP
#define SARNN_TESTS_SUBJECT_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>
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

template <class Model>
class ModelSubject final : public Subject {
    using T = typename Model::value_type;
    using Kind = ModelKind<Model>;
    using AlignParams = typename Kind::AlignParams;

public:
    /// A model on `p`, and for a SelfAttentionRnn whose align has params, on `*ap` too (both must outlive this).
    explicit ModelSubject(const typename Model::Params& p, const AlignParams* ap = nullptr)
        : params_(p), align_params_(ap), model_(make()) {}

    std::size_t in() const override { return Model::in_size; }
    std::size_t hidden() const override { return Model::hidden_size; }
    std::size_t capacity() const override { return Kind::capacity; }
    bool window() const override { return Kind::window; }
    Record state() const override { return record(*model_, sarnn::Status::ok); }
    sarnn::Status step(const ref::Vec& x) override {
        std::vector<T> xt(x.size());
        for (std::size_t k = 0; k < x.size(); ++k) xt[k] = static_cast<T>(x[k]);
        return model_->step(xt.data());
    }
    sarnn::Status step_array(const ref::Vec& x) override {
        std::array<T, Model::in_size> xa{};
        for (std::size_t k = 0; k < Model::in_size; ++k) xa[k] = static_cast<T>(x[k]);
        return model_->step(xa);
    }
    sarnn::Status step_null() override { return model_->step(static_cast<const T*>(nullptr)); }
    void reset() override { model_->reset(); }
    const void* params_address() const override { return &model_->params(); }
    void check_trace(const std::vector<Record>& trace, const std::vector<ref::Vec>& xs, TraceSpec spec,
                     std::vector<ref::Vec>& scalar_trace) const override {
        spec.capacity = Kind::capacity;
        spec.window = Kind::window;
        if constexpr (Kind::which == Which::simple) {
            check_simple_trace(trace, xs, ref::weights_of(params_, Model::in_size, Model::hidden_size), spec,
                               scalar_trace);
        } else if constexpr (Kind::which == Which::lstmn) {
            check_lstmn_trace(trace, xs, ref::lstmn_weights_of(params_), spec, scalar_trace);
        } else {
            check_sar_trace(trace, xs, ref::weights_of(params_, Model::in_size, Model::hidden_size), reference_align(),
                            spec, scalar_trace);
        }
    }

private:
    auto reference_align() const {
        if constexpr (Kind::align_has_params)
            return Kind::Traits::reference(*align_params_);
        else
            return Kind::Traits::reference(kit::NoParams{});
    }
    std::unique_ptr<Model> make() const {
        if constexpr (Kind::align_has_params)
            return std::make_unique<Model>(params_, *align_params_);
        else
            return std::make_unique<Model>(params_);
    }

    const typename Model::Params& params_;
    const AlignParams* align_params_;
    std::unique_ptr<Model> model_;  // on the heap: models with a large memory would crowd the stack
};

/// Makes a fresh model (a new one on the same params each call).
using Factory = std::function<std::unique_ptr<Subject>()>;

template <class Model>
Factory factory(const typename Model::Params& p) {
    return [&p]() -> std::unique_ptr<Subject> { return std::make_unique<ModelSubject<Model>>(p); };
}
template <class Model>
Factory factory(const typename Model::Params& p, const typename ModelKind<Model>::AlignParams& ap) {
    return [&p, &ap]() -> std::unique_ptr<Subject> { return std::make_unique<ModelSubject<Model>>(p, &ap); };
}

}  // namespace test

#endif
