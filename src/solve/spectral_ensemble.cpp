#include "solve/spectral_ensemble.h"

#include <ATen/ATen.h>
#include <ATen/core/grad_mode.h>

#include <stdexcept>
#include <string>

#include "pde/equation.h"
#include "solve/sampled_operator.h"

namespace bhpm::solve {

at::Tensor spectral_root_inputs(const pde::PeriodicGrid& grid, const at::Tensor& u,
                                std::int64_t dimensions) {
  const at::Tensor derivatives = grid.derivatives_from_spectral(
      grid.to_spectral(u.to(grid.device(), at::kDouble)), static_cast<int>(dimensions - 1));
  return derivatives.reshape({dimensions, -1}).t().contiguous();
}

std::string sample_dealiasing(const std::string& configured) {
  return configured == "pad" ? "truncate" : configured;
}

std::vector<double> linear_part(const pde::PeriodicGrid& grid, const gp::FunctionSamples& samples,
                                const at::Tensor& u0) {
  const at::Tensor inputs = spectral_root_inputs(grid, u0, samples.dimensions());
  return average_jacobian(samples, inputs.unsqueeze(0).expand({samples.count(), -1, -1}));
}

EnsembleSolution solve_spectral_ensemble(const pde::PeriodicGrid& grid,
                                         std::shared_ptr<const gp::FunctionSamples> samples,
                                         const at::Tensor& u0, pde::SolveOptions options,
                                         bool conserve_mean, std::vector<double> linear) {
  if (!samples) throw std::invalid_argument("spectral ensemble: no operator samples");
  if (u0.dim() != 1 || u0.size(0) != grid.points())
    throw std::invalid_argument("spectral ensemble: initial condition must have " +
                                std::to_string(grid.points()) + " grid values");
  if (linear.empty()) linear = linear_part(grid, *samples, u0);
  const std::int64_t count = samples->count();
  const at::Tensor start =
      u0.to(grid.device(), at::kDouble).unsqueeze(0).expand({count, -1}).contiguous();

  pde::Equation equation;
  equation.name = "operator samples";
  equation.linear = linear;
  equation.nonlinear =
      std::make_shared<SampledOperatorTerm>(samples, std::move(linear), conserve_mean);

  options.drop_diverged = true;
  options.stepper.dealias = sample_dealiasing(options.stepper.dealias);
  const at::NoGradGuard no_grad;
  const pde::Solution solution = pde::solve_periodic(grid, equation, start, options);
  EnsembleSolution ensemble;
  ensemble.x = grid.x().cpu();
  ensemble.t = solution.t;
  ensemble.u = solution.u.cpu();
  ensemble.diverged = solution.diverged.cpu();
  ensemble.failures = solution.failures;
  ensemble.steps = solution.steps;
  ensemble.rejected_steps = solution.rejected_steps;
  return ensemble;
}

}  // namespace bhpm::solve
