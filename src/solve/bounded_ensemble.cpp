#include "solve/bounded_ensemble.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "pde/equation.h"
#include "solve/sampled_operator.h"

namespace bhpm::solve {

at::Tensor bounded_root_inputs(const pde::ChebyshevGrid& grid, const at::Tensor& u,
                               std::int64_t dimensions) {
  std::vector<at::Tensor> columns;
  for (std::int64_t m = 0; m < dimensions; ++m)
    columns.push_back(
        at::matmul(u.to(at::kDouble), grid.differentiation_matrix(static_cast<int>(m)).t())
            .reshape({-1}));
  return at::stack(columns, 1);
}

EnsembleSolution solve_bounded_ensemble(const pde::ChebyshevGrid& grid,
                                        std::shared_ptr<const gp::FunctionSamples> samples,
                                        const at::Tensor& u0,
                                        const pde::BoundaryConditions& conditions,
                                        pde::BoundedSolveOptions options) {
  if (!samples) throw std::invalid_argument("bounded ensemble: no samples");
  if (u0.dim() != 1 || u0.size(0) != grid.points())
    throw std::invalid_argument("bounded ensemble: the initial condition must have shape [" +
                                std::to_string(grid.points()) + "]");
  const std::int64_t count = samples->count();
  const auto dimensions = static_cast<std::size_t>(samples->dimensions());
  pde::Equation equation;
  equation.name = "operator samples";
  equation.nonlinear = std::make_shared<SampledOperatorTerm>(std::move(samples),
                                                             std::vector<double>(dimensions, 0.0));
  options.drop_diverged = true;
  const pde::Solution solved = pde::solve_bounded(grid, equation, conditions,
                                                  u0.to(at::kDouble).expand({count, -1}), options);
  EnsembleSolution ensemble;
  ensemble.x = grid.x();
  ensemble.t = solved.t;
  ensemble.u = solved.u;
  ensemble.diverged = solved.diverged;
  ensemble.failures = solved.failures;
  ensemble.steps = solved.steps;
  ensemble.rejected_steps = solved.rejected_steps;
  return ensemble;
}

}  // namespace bhpm::solve
