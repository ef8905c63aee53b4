#pragma once
/// Operator samples that are polynomials: sample s is the distilled equation of one
/// operator sample (eval/operator_distillation.h, `bhpm distill`),
///   f_s(v) = sum_j xi_sj theta_j(v),
/// with theta_j the monomials of a pde::TermLibrary. `bhpm predict --operator distilled`
/// solves them as it solves the GP's samples: the spectral solver treats their average
/// Jacobian at u0 exactly (solve/sampled_operator.h), which for these samples is their
/// linear terms' mean coefficient plus the linearisation of the nonlinear ones.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <vector>

#include "gp/function_samples.h"
#include "pde/term_library.h"

namespace bhpm::solve {

class PolynomialSamples final : public gp::FunctionSamples {
 public:
  /// coefficients xi [S, J] (double, finite, S >= 1) over `library` (J terms); throws
  /// std::invalid_argument otherwise.
  PolynomialSamples(pde::TermLibrary library, at::Tensor coefficients);
  std::int64_t count() const override { return coefficients_.size(0); }
  std::int64_t dimensions() const override {
    return static_cast<std::int64_t>(library_.variables.size());
  }
  /// f_s(v[s]) [S, P] for v [S, P, D]; differentiable with respect to v.
  at::Tensor evaluate(const at::Tensor& v) const override;
  bool evaluates_values() const override { return true; }
  /// f_s at v [D, P] on plain arrays: sum_j xi_sj prod_d v_d^e_jd by loops.
  void evaluate_values(std::int64_t s, const double* v, std::int64_t points, double t,
                       double* out) const override;
  /// The members' coefficients.
  std::shared_ptr<const gp::FunctionSamples> select(const at::Tensor& members) const override;

 private:
  pde::TermLibrary library_;
  at::Tensor coefficients_;                 ///< [S, J]
  std::vector<double> coefficient_values_;  ///< the same, row-major on the CPU

  void copy_coefficient_values();
};

}  // namespace bhpm::solve
