#pragma once
/// Ill-posed operator samples repaired by the least diffusion that makes them well-posed
/// along the initial condition (docs/predictions.md, "Ill-posed samples"):
///   f'_s(v) = f_s(v) + a_s u_xx,  a_s >= 0  (v = (u, u_x, u_xx, ..)),
/// a_s from solve::stabilising_diffusion: 0 for a sample that is well-posed already, and for
/// an ill-posed one the smallest coefficient with which its linearisation about u0 grows no
/// resolved wave more than the amplification limit over the horizon. The data rarely pin
/// down the slope of f along u_xx to the last 1e-4 where the true one is 0 (KdV), and a
/// sample just below 0 there diffuses backwards; the repair is the same rule for every
/// sample and is recorded per member (EnsembleSolution::repaired, ::added_diffusion).

#include <ATen/core/Tensor.h>

#include <memory>
#include <vector>

#include "gp/function_samples.h"
#include "solve/added_term_samples.h"

namespace bhpm::solve {

class StabilisedSamples final : public AddedTermSamples {
 public:
  /// Adds diffusion [S] (finite, >= 0) times u_xx to each of `samples`. Throws
  /// std::invalid_argument for null samples, a diffusion of another size, a negative or
  /// non-finite entry, or a positive one where the samples take no u_xx (D < 3).
  StabilisedSamples(std::shared_ptr<const gp::FunctionSamples> samples, at::Tensor diffusion);
  /// The members of the underlying samples with their added diffusion.
  std::shared_ptr<const gp::FunctionSamples> select(const at::Tensor& members) const override;

 private:
  /// a_s v_sp2 [S, P] for v [S, P, D].
  at::Tensor added_term(const at::Tensor& v) const override;
  bool adds_values() const override { return true; }
  /// out[p] += a_s v_2p.
  void add_term_values(std::int64_t s, const double* v, std::int64_t points,
                       double* out) const override;

  at::Tensor diffusion_;                 ///< a [S, 1] double
  std::vector<double> plain_diffusion_;  ///< a [S], for add_term_values
};

}  // namespace bhpm::solve
