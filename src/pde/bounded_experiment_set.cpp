#include "pde/bounded_experiment_set.h"

#include <ATen/ATen.h>

#include <stdexcept>
#include <vector>

#include "pde/boundary_elimination.h"

namespace bhpm::pde {

namespace {

/// u [E, m] on the uniform periodic grid of [a, b] evaluated at `x` [P] by its Fourier
/// series (the trigonometric interpolant; the Nyquist mode as a cosine): [E, P].
at::Tensor periodic_interpolant(const at::Tensor& u, double a, double b, const at::Tensor& x) {
  const std::int64_t m = u.size(1);
  const at::Tensor u_hat = at::fft_rfft(u, c10::nullopt, 1);  // [E, m/2 + 1]
  const at::Tensor k = at::arange(m / 2 + 1, at::kDouble);
  const at::Tensor phase = 2.0 * M_PI / (b - a) * at::outer(x - a, k);  // [P, m/2 + 1]
  at::Tensor weight = at::full({m / 2 + 1}, 2.0 / static_cast<double>(m), at::kDouble);
  weight[0] = 1.0 / static_cast<double>(m);
  if (m % 2 == 0) weight[m / 2] = 1.0 / static_cast<double>(m);
  return at::matmul(at::real(u_hat) * weight, at::cos(phase).t()) -
         at::matmul(at::imag(u_hat) * weight, at::sin(phase).t());
}

/// u0 [E, n+1] plus the least-norm polynomial correction that meets every condition at 0.
at::Tensor meet_conditions(const ChebyshevGrid& grid, const BoundaryConditions& conditions,
                           const at::Tensor& u0, const std::string& field) {
  const auto r = static_cast<std::int64_t>(conditions.left.size() + conditions.right.size());
  if (r == 0) return u0;
  const at::Tensor s = (2.0 * grid.x() - grid.a() - grid.b()) / (grid.b() - grid.a());
  const at::Tensor basis = at::stack(
      [&] {
        std::vector<at::Tensor> powers;
        for (std::int64_t d = 0; d <= r + 1; ++d) powers.push_back(s.pow(d));
        return powers;
      }(),
      1);                                                   // [n+1, r+2]
  const at::Tensor B = condition_matrix(grid, conditions);  // [r, n+1]
  const at::Tensor A = at::matmul(B, basis);                // [r, r+2]
  if (at::linalg_matrix_rank(A).item<std::int64_t>() < r)
    throw std::invalid_argument(field +
                                ": the boundary conditions cannot all be met by correcting the "
                                "initial condition with a polynomial (are two of them the same?)");
  std::vector<double> targets;
  for (const auto* side : {&conditions.left, &conditions.right})
    for (const BoundaryCondition& c : *side) targets.push_back(c.value(0.0));
  const at::Tensor g = at::tensor(targets, at::kDouble).unsqueeze(1);       // [r, 1]
  const at::Tensor missing = g - at::matmul(B, u0.t());                     // [r, E]
  const at::Tensor coefficients = at::matmul(at::linalg_pinv(A), missing);  // [r+2, E]
  return u0 + at::matmul(basis, coefficients).t();
}

}  // namespace

at::Tensor bounded_initial_conditions(const ChebyshevGrid& grid, std::int64_t modes,
                                      const BoundaryConditions& conditions,
                                      const InitialConditionOptions& options, std::int64_t count,
                                      std::uint64_t seed, const std::string& stream) {
  const std::string field = options.field_names("kind");
  if (options.kind == "expression") {
    const at::Tensor u0 = initial_condition_from_expression(grid, options.expression,
                                                            options.field_names("expression"));
    return u0.unsqueeze(0).expand({count, grid.points()}).contiguous();
  }
  if (options.kind != "gp")
    throw std::invalid_argument(field + " = \"" + options.kind +
                                "\": on a bounded domain the initial conditions are \"gp\" "
                                "draws or an \"expression\" (a file holds a periodic grid's "
                                "values)");
  const PeriodicGrid periodic(grid.a(), grid.b(), modes);
  const at::Tensor draws = make_initial_conditions(periodic, options, count, seed, stream);
  return meet_conditions(grid, conditions,
                         periodic_interpolant(draws, grid.a(), grid.b(), grid.x()), field);
}

ExperimentSet simulate_bounded_experiment_set(const ChebyshevGrid& grid, std::int64_t modes,
                                              const Equation& equation,
                                              const BoundaryConditions& conditions,
                                              const ExperimentSetOptions& options) {
  return simulate_and_measure(options, grid.x(), describe(conditions), [&] {
    const at::Tensor u0 = bounded_initial_conditions(
        grid, modes, conditions, options.initial_condition, options.experiments, options.seed,
        options.name + "/initial_condition");
    BoundedSolveOptions solve;
    solve.t_end = options.solve.t_end;
    solve.output_dt = options.solve.output_dt;
    solve.blowup_factor = options.solve.blowup_factor;
    return solve_bounded(grid, equation, conditions, u0, solve);
  });
}

}  // namespace bhpm::pde
