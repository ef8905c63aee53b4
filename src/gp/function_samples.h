#pragma once
/// S deterministic functions f_s : R^D -> R drawn from a GP posterior, evaluated together
/// (paper section 2.3: a sample f~ ~ q(f) of the learned operator, the input of an IBVP
/// solve). For the root, D = K + 1 and v = (u, u_x, .., d^K u/dx^K).
///
/// Implementations: pathwise samples (gp/pathwise_samples.h: random Fourier features plus
/// the data update) and conditioned means (gp/conditioned_gp.h, the paper's Algorithm 1).
/// Every sample is a fixed function: evaluating twice at the same v gives the same value.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>
#include <stdexcept>

#include "gp/kernel_expansion.h"

namespace bhpm::gp {

class FunctionSamples {
 public:
  virtual ~FunctionSamples() = default;
  /// S, the number of functions.
  virtual std::int64_t count() const = 0;
  /// D, the input dimension.
  virtual std::int64_t dimensions() const = 0;
  /// f_s(v_sp) [S, P] for v [S, P, D] (double): sample s is evaluated at its own rows
  /// v[s]. Differentiable with respect to v (a PINN trains through it; the spectral
  /// solver's linearisation takes its Jacobian), not with respect to the GP's parameters.
  virtual at::Tensor evaluate(const at::Tensor& v) const = 0;
  /// f_s(v_sp, t_sp) [S, P] for samples that change in time (a time-correlated model
  /// discrepancy, gp/discrepancy_field.h): t a double scalar (0-dim, one time for every
  /// point) or [S, P]; by default the time-independent evaluate(v).
  virtual at::Tensor evaluate_at(const at::Tensor& v, const at::Tensor& /*t*/) const {
    return evaluate(v);
  }
  /// Sample s written out as a kernel expansion (gp/kernel_expansion.h), where it is one
  /// (conditioned means, the posterior mean, their narrowed combinations); null by default.
  /// Where every sample is one, the defaults below evaluate plain values through it.
  virtual const KernelExpansion* expansion(std::int64_t /*s*/) const { return nullptr; }
  /// Whether evaluate_values is implemented. By default, whether the samples are kernel
  /// expansions.
  virtual bool evaluates_values() const { return expansion(0) != nullptr; }
  /// f_s(v_p, t) [P] of sample s alone on plain arrays at one time t: v [D, P] row-major
  /// (row d: the P values of input d), out [P]. Safe to call from several threads at once;
  /// lets a spectral solve step each sample on its own without tensors
  /// (pde/plain_periodic_solve.h). By default the sample's kernel expansion (which does not
  /// change in time), or std::logic_error where it has none.
  virtual void evaluate_values(std::int64_t s, const double* v, std::int64_t points, double /*t*/,
                               double* out) const {
    const KernelExpansion* sample = expansion(s);
    if (!sample) throw std::logic_error("these operator samples evaluate tensors only");
    sample->evaluate(v, points, out);
  }
  /// Samples members [k] (int64, distinct, in [0, S)) as a set of k functions, sample i of
  /// the result being sample members[i] of this set, at the cost of k samples; null where an
  /// implementation has no such restriction (select_members then wraps it).
  virtual std::shared_ptr<const FunctionSamples> select(const at::Tensor& /*members*/) const {
    return nullptr;
  }
};

/// samples->select(members), or where that is null a wrapper that evaluates the whole set
/// (the other members at v = 0) and keeps those members' rows: the same functions at the
/// whole set's cost (gp/selected_samples.cpp). Throws std::invalid_argument for members
/// that are not int64 [k], k >= 1, in [0, S).
std::shared_ptr<const FunctionSamples> select_members(
    const std::shared_ptr<const FunctionSamples>& samples, const at::Tensor& members);

}  // namespace bhpm::gp
