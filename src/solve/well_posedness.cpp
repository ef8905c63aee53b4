#include "solve/well_posedness.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "pde/dealiasing.h"
#include "solve/bounded_ensemble.h"
#include "solve/sampled_operator.h"
#include "solve/spectral_ensemble.h"
#include "util/name_list.h"
#include "util/option_check.h"

namespace bhpm::solve {

void validate(const WellPosednessOptions& options) {
  const std::string owner = "well-posedness check";
  util::require_positive(options.t_end, owner, "t_end");
  util::require_above(options.amplification_limit, 1.0, owner, "amplification_limit");
  util::require_listed(options.dealias, pde::dealiasing_names(), owner, "dealias");
}

namespace {

/// t_end (Re lambda(k_j) - Re lambda(0)) [S, W - 1] for j > 0.
at::Tensor relative_growth(const at::Tensor& linearisation, const at::Tensor& wavenumbers,
                           double t_end) {
  const std::int64_t dimensions = linearisation.size(1);
  // Re (i k)^m = (-1)^{m/2} k^m for even m, 0 for odd m.
  at::Tensor real_symbol = at::zeros({dimensions, wavenumbers.size(0)}, wavenumbers.options());
  for (std::int64_t m = 0; m < dimensions; m += 2)
    real_symbol[m] = (m % 4 == 0 ? 1.0 : -1.0) * wavenumbers.pow(static_cast<double>(m));
  // Summed elementwise over m, so that a sample's value does not depend on how many samples
  // are checked together (an MPI rank checks its share; a matrix product may round by size).
  at::Tensor re_lambda = at::zeros({linearisation.size(0), wavenumbers.size(0)},
                                   wavenumbers.options());  // [S, W]
  for (std::int64_t m = 0; m < dimensions; m += 2)
    re_lambda.addcmul_(linearisation.select(1, m).unsqueeze(1), real_symbol[m].unsqueeze(0));
  return t_end * (re_lambda.narrow(1, 1, re_lambda.size(1) - 1) - re_lambda.narrow(1, 0, 1));
}

}  // namespace

at::Tensor symbol_growth(const at::Tensor& linearisation, const at::Tensor& wavenumbers,
                         double t_end) {
  return std::get<0>(relative_growth(linearisation, wavenumbers, t_end).max(1));
}

at::Tensor stabilising_diffusion(const at::Tensor& linearisation, const at::Tensor& wavenumbers,
                                 double t_end, double limit_e_folds) {
  const at::Tensor excess = relative_growth(linearisation, wavenumbers, t_end) - limit_e_folds;
  const at::Tensor k_squared = wavenumbers.narrow(0, 1, wavenumbers.size(0) - 1).square();
  // a k^2 t_end >= excess(k) for every k > 0.
  return std::get<0>((excess / (t_end * k_squared)).max(1)).clamp_min(0.0);
}

namespace {

/// The check of `samples` linearised about the root inputs v [P, D] of u0, over the
/// resolved wavenumbers [W] (k[0] = 0).
WellPosedness check_about(const gp::FunctionSamples& samples, const at::Tensor& v,
                          const at::Tensor& wavenumbers, const WellPosednessOptions& options) {
  validate(options);
  WellPosedness result;
  result.linearisation =
      member_jacobians(samples, v.unsqueeze(0).expand({samples.count(), -1, -1}));
  result.growth = symbol_growth(result.linearisation, wavenumbers, options.t_end);
  result.limit_e_folds = std::log(options.amplification_limit);
  result.ill_posed = ~at::isfinite(result.growth) | (result.growth > result.limit_e_folds);
  result.diffusion =
      stabilising_diffusion(result.linearisation, wavenumbers, options.t_end, result.limit_e_folds);
  return result;
}

}  // namespace

WellPosedness check_well_posedness(const gp::FunctionSamples& samples,
                                   const pde::PeriodicGrid& grid, const at::Tensor& u0,
                                   const WellPosednessOptions& options) {
  at::Tensor wavenumbers = grid.wavenumbers();
  wavenumbers =
      wavenumbers.index({pde::DealiasedProduct(grid, options.dealias).kept_modes() > 0.5});
  return check_about(samples, spectral_root_inputs(grid, u0, samples.dimensions()), wavenumbers,
                     options);
}

WellPosedness check_well_posedness(const gp::FunctionSamples& samples,
                                   const pde::ChebyshevGrid& grid, const at::Tensor& u0,
                                   const WellPosednessOptions& options) {
  const std::int64_t intervals = grid.points() - 1;
  const at::Tensor wavenumbers =
      at::arange(intervals / 2 + 1, at::TensorOptions().dtype(at::kDouble)) *
      (2.0 * M_PI / (grid.b() - grid.a()));
  return check_about(samples, bounded_root_inputs(grid, u0, samples.dimensions()), wavenumbers,
                     options);
}

}  // namespace bhpm::solve
