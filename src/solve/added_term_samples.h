#pragma once
/// Operator samples changed by adding a term to each: f'_s(v) = f_s(v) + h_s(v), with h_s a
/// fixed, differentiable function of v (solve/stabilised_samples.h: a member's least
/// stabilising diffusion a_s u_xx; solve/shifted_samples.h: one polynomial g for all). The
/// added term does not change in time: evaluate_at adds it to the samples' f_s(v, t).

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <memory>

#include "gp/function_samples.h"

namespace bhpm::solve {

class AddedTermSamples : public gp::FunctionSamples {
 public:
  std::int64_t count() const final { return samples_->count(); }
  std::int64_t dimensions() const final { return samples_->dimensions(); }
  /// f_s(v) + h_s(v) [S, P] for v [S, P, D].
  at::Tensor evaluate(const at::Tensor& v) const final;
  at::Tensor evaluate_at(const at::Tensor& v, const at::Tensor& t) const final;
  /// Where the samples and the added term both evaluate plain values.
  bool evaluates_values() const final;
  /// f_s(v, t) + h_s(v) on plain arrays: v [D, P] row-major, out [P].
  void evaluate_values(std::int64_t s, const double* v, std::int64_t points, double t,
                       double* out) const final;

 protected:
  /// Throws std::invalid_argument for null samples.
  explicit AddedTermSamples(std::shared_ptr<const gp::FunctionSamples> samples);
  /// h_s(v) [S, P] for v [S, P, D].
  virtual at::Tensor added_term(const at::Tensor& v) const = 0;
  /// Whether add_term_values is implemented. By default false.
  virtual bool adds_values() const { return false; }
  /// out[p] += h_s(v_p) on plain arrays (v [D, P] row-major). By default throws
  /// std::logic_error (see adds_values).
  virtual void add_term_values(std::int64_t s, const double* v, std::int64_t points,
                               double* out) const;
  /// Keeps the underlying samples' members [k] only (the first step of a derived select).
  void keep_members(const at::Tensor& members);

 private:
  std::shared_ptr<const gp::FunctionSamples> samples_;
};

}  // namespace bhpm::solve
