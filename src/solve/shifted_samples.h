#pragma once
/// Operator samples with one polynomial added to every one of them (docs/calibration.md,
/// "Equation terms from the weak form"):
///   f'_s(v) = f_s(v) + g(v),  g(v) = sum_j c_j theta_j(v),
/// theta_j the monomials of a pde::TermLibrary. `bhpm predict` uses it to move the
/// coefficients of the equation's terms, which every sample shares from the leaves'
/// derivatives, to the weak form's (pipeline/weak_form_shift.h); the samples' spread about
/// their mean is unchanged. Each f'_s is a fixed, differentiable function of v, as f_s is.

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>

#include "gp/function_samples.h"
#include "pde/term_library.h"
#include "solve/added_term_samples.h"

namespace bhpm::solve {

/// g: coefficients c [J] (double, finite) over `library`; `description` says what it moves
/// ("u_xxx -0.9894 -> -0.9999, ..."), for the prediction's record.
struct OperatorShift {
  pde::TermLibrary library;
  at::Tensor coefficients;
  std::string description;
};

/// Throws std::invalid_argument unless c is a finite double [J] over the library.
void validate(const OperatorShift& shift);

/// beta = argmin_b || f(V) - Theta(V) T^T b ||_2 [K]: the least-squares coefficients of a
/// function on K terms, each a polynomial over `library` (the rows of T = `terms` [K, J]),
/// from its values f(V) = `values` [P] at v = V [P, D]. With target coefficients xi [K],
/// g = (xi - beta) T gives f + g the coefficients xi on those terms at V.
at::Tensor term_coefficients(const pde::TermLibrary& library, const at::Tensor& terms,
                             const at::Tensor& v, const at::Tensor& values);

class ShiftedSamples final : public AddedTermSamples {
 public:
  /// Throws std::invalid_argument for null samples, an invalid shift or one over another
  /// number of variables than the samples' inputs.
  ShiftedSamples(std::shared_ptr<const gp::FunctionSamples> samples,
                 std::shared_ptr<const OperatorShift> shift);
  /// The members of the underlying samples, shifted alike.
  std::shared_ptr<const gp::FunctionSamples> select(const at::Tensor& members) const override;

 private:
  at::Tensor added_term(const at::Tensor& v) const override;  ///< g(v) [S, P]

  OperatorShift terms_;  ///< g over its nonzero terms only
};

}  // namespace bhpm::solve
