// tests/subject.hpp: a model under test behind a small virtual interface, so that the checks (reference runs,
// reset, full memory, bad input, the std::array overload) are compiled once instead of once per model shape.
// Only ModelSubject<Model> is instantiated per shape: that keeps the suite quick to build, also for the
// cross compilers.
#ifndef SARNN_TESTS_SUBJECT_HPP
#define SARNN_TESTS_SUBJECT_HPP

#include <sarnn/sarnn.hpp>

#include <array>
#include <cstddef>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "reference.hpp"
#include "shared/state_bytes.hpp"
#include "support.hpp"

namespace test {

/// Everything a model shows, as doubles and as raw bytes (for bit-identical comparisons).
struct Record {
    sarnn::Status status = sarnn::Status::ok;  ///< of the step that led here (ok for a snapshot)
    std::size_t length = 0;
    bool full = false;
    ref::Vec h, c, alpha;  ///< c and alpha stay empty for SimpleRnn
    std::vector<unsigned char> bytes;
};

class Subject {
public:
    virtual ~Subject() = default;
    virtual std::size_t in() const = 0;
    virtual std::size_t hidden() const = 0;
    /// Capacity of a SelfAttentionRnn, 0 for SimpleRnn (no memory bound).
    virtual std::size_t capacity() const = 0;
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

    Record step_and_record(const ref::Vec& x) {
        const sarnn::Status s = step(x);
        Record r = state();
        r.status = s;
        return r;
    }
};

template <class Model>
class ModelSubject final : public Subject {
    using T = typename Model::value_type;
    static constexpr bool kAttention = !std::is_same_v<Model, sarnn::SimpleRnn<T, Model::in_size, Model::hidden_size>>;

public:
    explicit ModelSubject(const typename Model::Params& p) : model_(std::make_unique<Model>(p)) {}

    std::size_t in() const override { return Model::in_size; }
    std::size_t hidden() const override { return Model::hidden_size; }
    std::size_t capacity() const override {
        if constexpr (kAttention)
            return Model::capacity;
        else
            return 0;
    }
    Record state() const override {
        Record r;
        r.length = model_->length();
        r.h = to_vec(model_->hidden());
        r.bytes = kit::state_bytes(*model_);
        if constexpr (kAttention) {
            r.full = model_->full();
            r.c = to_vec(model_->context());
            r.alpha = to_vec(model_->attention());
        }
        return r;
    }
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

private:
    std::unique_ptr<Model> model_;  // on the heap: models with a large memory would crowd the stack
};

/// Makes a fresh model (a new one on the same params each call).
using Factory = std::function<std::unique_ptr<Subject>()>;

template <class Model>
Factory factory(const typename Model::Params& p) {
    return [&p]() -> std::unique_ptr<Subject> { return std::make_unique<ModelSubject<Model>>(p); };
}

template <class T>
std::vector<ref::Vec> to_vecs(const std::vector<std::vector<T>>& xs) {
    std::vector<ref::Vec> out;
    out.reserve(xs.size());
    for (const auto& x : xs) out.push_back(to_vec(x));
    return out;
}

}  // namespace test

#endif
