// sarnn/status.hpp: the result of every call that can fail. No exceptions anywhere in sarnn.
#ifndef SARNN_STATUS_HPP
#define SARNN_STATUS_HPP

namespace sarnn {

/// What a call did. Every value but `ok` means the call changed nothing.
enum class Status : unsigned char {
    ok = 0,            ///< the step was taken; the views show the resulting state
    memory_full,       ///< Bounded memory already holds Capacity states: step refused, state unchanged
    null_input,        ///< a null pointer was passed where data was expected: state unchanged
    non_finite_input,  ///< x holds NaN or +-Inf (only when SARNN_CHECK_INPUT is 1): state unchanged
    arch_unavailable,  ///< set_arch(): that kernel set is not compiled in or the CPU lacks it
    invalid_argument,  ///< run(): an Emit the model does not have (e.g. Emit::cell on SelfAttentionRnn);
                       ///< validate(): a q15 params constant outside its range (Validation names it)
    non_finite_param,  ///< validate(): a weight is NaN or +-Inf (Validation names the array and index)
    /// step(): x is finite but this step's arithmetic would overflow into NaN/Inf (A·[x; r] + b is inf - inf,
    /// or the align's query is so large that a score could overflow): step refused, state unchanged
    non_finite_result,
};

/// A short, static, human-readable name for a status ("ok", "memory_full", ...).
constexpr const char* to_string(Status s) noexcept {
    switch (s) {
    case Status::ok: return "ok";
    case Status::memory_full: return "memory_full";
    case Status::null_input: return "null_input";
    case Status::non_finite_input: return "non_finite_input";
    case Status::arch_unavailable: return "arch_unavailable";
    case Status::invalid_argument: return "invalid_argument";
    case Status::non_finite_param: return "non_finite_param";
    case Status::non_finite_result: return "non_finite_result";
    }
    return "unknown";
}

}  // namespace sarnn

#endif
