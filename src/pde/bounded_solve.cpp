#include "pde/bounded_solve.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <tuple>

#include "pde/boundary_elimination.h"
#include "pde/implicit_integrator.h"
#include "pde/member_threads.h"
#include "pde/output_times.h"
#include "util/option_check.h"

namespace bhpm::pde {

void validate(const BoundedSolveOptions& options) {
  const std::string owner = "bounded solve";
  validate_output_times(options.t_end, options.output_dt, owner);
  util::require_positive(options.relative_tolerance, owner, "relative_tolerance");
  util::require_positive(options.absolute_tolerance, owner, "absolute_tolerance");
  util::require_at_least(options.max_interval_steps, 1, owner, "max_interval_steps");
  util::require_positive(options.blowup_factor, owner, "blowup_factor");
  util::require_positive(options.compatibility_tolerance, owner, "compatibility_tolerance");
}

at::Tensor pointwise_partials(const Equation& equation, const at::Tensor& derivatives,
                              const at::Tensor& t) {
  const std::int64_t rows = derivatives.size(0), points = derivatives.size(2);
  const at::Tensor step =
      std::cbrt(std::numeric_limits<double>::epsilon()) * derivatives.abs().clamp_min(1.0);
  // Every perturbed copy side by side along the points: one evaluation of F.
  std::vector<at::Tensor> copies;
  for (std::int64_t m = 0; m < rows; ++m)
    for (double sign : {1.0, -1.0}) {
      at::Tensor copy = derivatives.clone();
      copy[m] += sign * step[m];
      copies.push_back(copy);
    }
  const at::Tensor values =
      equation.right_hand_side(at::cat(copies, 2), t).reshape({rows, 2, points});
  return (values.select(1, 0) - values.select(1, 1)) / (2.0 * step.squeeze(1));
}

namespace {

/// One member's problem: its equation, the eliminated unknowns, and what CVODE calls.
class MemberProblem {
 public:
  MemberProblem(const Equation& equation, const BoundaryElimination& elimination, double limit)
      : equation_(equation), elimination_(elimination), limit_(limit) {}

  /// (u, .., d^K u) [K+1, 1, n+1] on all points at time t from the unknowns y [n_i].
  at::Tensor derivatives(const double* y, double t) const {
    const at::Tensor unknowns =
        at::from_blob(const_cast<double*>(y), {elimination_.unknowns()}, at::kDouble);
    return elimination_.derivatives(unknowns, elimination_.values(t)).unsqueeze(1);
  }

  /// 0; 1 when F is not finite (CVODE retries a smaller step); -1 when u has passed the
  /// blow-up limit (CVODE stops).
  int right_hand_side(double t, const double* y, double* ydot) const {
    const at::Tensor v = derivatives(y, t);
    if (!(v[0].abs().max().item<double>() <= limit_)) {
      blown_up_at_ = t;
      return -1;
    }
    const at::Tensor f = equation_.right_hand_side(v, at::scalar_tensor(t, at::kDouble)).squeeze(0);
    if (!at::isfinite(f).all().item<bool>()) return 1;
    const at::Tensor rates = elimination_.rates(f, elimination_.value_rates(t)).contiguous();
    std::memcpy(ydot, rates.data_ptr<double>(),
                sizeof(double) * static_cast<std::size_t>(rates.numel()));
    return 0;
  }

  /// The time at which u passed the limit, or < 0.
  double blown_up_at() const { return blown_up_at_; }

  int jacobian(double t, const double* y, double* column_major) const {
    const at::Tensor partials =
        pointwise_partials(equation_, derivatives(y, t), at::scalar_tensor(t, at::kDouble));
    if (!at::isfinite(partials).all().item<bool>()) return 1;
    // J = S sum_m diag(dF/dv_m) A_m, written column-major (the transpose's rows).
    const at::Tensor j =
        at::matmul(elimination_.collocation(),
                   (partials.unsqueeze(2) * elimination_.derivative_operators()).sum(0))
            .t()
            .contiguous();
    std::memcpy(column_major, j.data_ptr<double>(),
                sizeof(double) * static_cast<std::size_t>(j.numel()));
    return 0;
  }

 private:
  const Equation& equation_;
  const BoundaryElimination& elimination_;
  double limit_;
  mutable double blown_up_at_ = -1.0;
};

/// Member b's equation: its own sample of the nonlinear part when the part has samples.
Equation member_equation(const Equation& equation, std::int64_t b) {
  Equation member = equation;
  if (equation.nonlinear) {
    auto selected = equation.nonlinear->select_members(at::tensor({b}, at::kLong));
    if (selected) member.nonlinear = selected;
  }
  return member;
}

/// dF/d(d^K u) at both ends of u [n+1] at t = 0: (left, right).
std::pair<double, double> leading_coefficients(const Equation& equation, const ChebyshevGrid& grid,
                                               const at::Tensor& u, int order) {
  std::vector<at::Tensor> rows;
  for (int m = 0; m <= order; ++m) rows.push_back(at::matmul(grid.differentiation_matrix(m), u));
  const at::Tensor ends =
      at::stack(rows).index_select(1, at::tensor({std::int64_t{0}, grid.points() - 1}, at::kLong));
  const at::Tensor partials =
      pointwise_partials(equation, ends.unsqueeze(1), at::scalar_tensor(0.0, at::kDouble))[order];
  return {partials[0].item<double>(), partials[1].item<double>()};
}

}  // namespace

ConditionCount conditions_needed(const ChebyshevGrid& grid, const Equation& equation,
                                 const at::Tensor& u0) {
  const int order = equation.order();
  const auto [left, right] = leading_coefficients(equation, grid, u0.to(at::kDouble), order);
  return required_conditions(order, left, right);
}

namespace {

/// Throws unless member `b`'s u [n+1] meets every condition at t = 0 (the rule of
/// BoundedSolveOptions::compatibility_tolerance).
void check_compatibility(const ChebyshevGrid& grid, const BoundaryConditions& conditions,
                         const at::Tensor& u, std::int64_t b, double tolerance) {
  for (const auto& [end, side, node] :
       {std::make_tuple("left", &conditions.left, std::int64_t{0}),
        std::make_tuple("right", &conditions.right, grid.points() - 1)}) {
    for (const BoundaryCondition& c : *side) {
      double value = 0.0, scale = 0.0;
      for (std::size_t m = 0; m < c.weights.size(); ++m) {
        if (c.weights[m] == 0.0) continue;
        const at::Tensor derivative =
            at::matmul(grid.differentiation_matrix(static_cast<int>(m)), u);
        value += c.weights[m] * derivative[node].item<double>();
        scale += std::abs(c.weights[m]) * derivative.abs().max().item<double>();
      }
      const double target = c.value(0.0);
      scale = std::max({1.0, std::abs(target), scale});
      if (!(std::abs(value - target) <= tolerance * scale))
        throw std::invalid_argument(
            std::string("bounded solve: the initial condition") +
            (b > 0 ? " of member " + std::to_string(b) : std::string()) + " does not meet the " +
            end + " end's condition " + c.describe() + " at t = 0: it gives " +
            util::option_value(value) + " where the condition gives " + util::option_value(target) +
            " (they must agree within " + util::option_value(tolerance) + " x " +
            util::option_value(scale) + ")");
    }
  }
}

}  // namespace

void require_compatible(const ChebyshevGrid& grid, const BoundaryConditions& conditions,
                        const at::Tensor& u0, double tolerance) {
  check_compatibility(grid, conditions, u0.to(at::kDouble), 0, tolerance);
}

namespace {

/// Per member, "" or why the problem is ill-posed for it with these conditions: its leading
/// term needs another count of conditions, or is backward diffusion. Throws (the message of
/// check_conditions, or the member's) when `drop` is off and a member is ill-posed, or when
/// every member is.
std::vector<std::string> members_ill_posed(const ChebyshevGrid& grid,
                                           const std::vector<Equation>& equations,
                                           const at::Tensor& u0,
                                           const BoundaryConditions& conditions, int order,
                                           bool drop) {
  const ConditionCount given{static_cast<int>(conditions.left.size()),
                             static_cast<int>(conditions.right.size())};
  std::vector<std::string> reasons;
  std::int64_t first_sound = -1;
  for (std::size_t b = 0; b < equations.size(); ++b) {
    std::string reason;
    try {
      const ConditionCount needed =
          conditions_needed(grid, equations[b], u0[static_cast<std::int64_t>(b)]);
      if (needed.left != given.left || needed.right != given.right)
        reason = "ill-posed with these boundary conditions: its leading term needs " +
                 std::to_string(needed.left) + " at the left end and " +
                 std::to_string(needed.right) + " at the right";
    } catch (const std::invalid_argument& error) {
      reason = std::string("ill-posed: ") + error.what();
    }
    if (reason.empty() && first_sound < 0) first_sound = static_cast<std::int64_t>(b);
    reasons.push_back(reason);
  }
  if (first_sound < 0 || !drop) {
    // The message that names the end and the count, from the first member.
    check_conditions(conditions, conditions_needed(grid, equations[0], u0[0]), order,
                     equations[0].describe());
    for (std::size_t b = 0; b < reasons.size(); ++b)
      if (!reasons[b].empty())
        throw std::invalid_argument("bounded solve: member " + std::to_string(b) + " is " +
                                    reasons[b]);
  }
  check_conditions(conditions, given, order, equations[0].describe());  // their orders and values
  return reasons;
}

/// Why a member stops, or "".
struct MemberResult {
  std::string failure;
  double failed_at = 0.0;
  std::int64_t failed_output = 0;
  std::int64_t steps = 0, failed_steps = 0;
};

/// A member left unsolved for `reason`: its snapshots NaN.
MemberResult not_solved(const std::string& reason, at::Tensor snapshots) {
  snapshots.fill_(std::numeric_limits<double>::quiet_NaN());
  MemberResult result;
  result.failure = reason;
  return result;
}

MemberResult solve_member(const Equation& equation, const BoundaryElimination& elimination,
                          const at::Tensor& u0, const BoundedSolveOptions& options, double limit,
                          at::Tensor snapshots) {
  MemberResult result;
  const MemberProblem problem(equation, elimination, limit);
  at::Tensor y = u0.index_select(0, elimination.independent()).contiguous();
  snapshots[0] = elimination.field(y, elimination.values(0.0));
  ImplicitIntegratorOptions integrator_options;
  integrator_options.relative_tolerance = options.relative_tolerance;
  integrator_options.absolute_tolerance = options.absolute_tolerance;
  integrator_options.max_steps = options.max_interval_steps;
  ImplicitIntegrator integrator(
      y.numel(), 0.0, y.data_ptr<double>(),
      [&](double t, const double* state, double* ydot) {
        return problem.right_hand_side(t, state, ydot);
      },
      [&](double t, const double* state, double* j) { return problem.jacobian(t, state, j); },
      integrator_options);
  const std::int64_t outputs = snapshots.size(0);
  for (std::int64_t k = 1; k < outputs; ++k) {
    const double t = static_cast<double>(k) * options.output_dt;
    try {
      integrator.advance_to(t, y.data_ptr<double>());
    } catch (const IntegrationFailure& failure) {
      result.failure = problem.blown_up_at() >= 0.0
                           ? "max|u| passed the blow-up limit " + std::to_string(limit) +
                                 " at t = " + std::to_string(problem.blown_up_at())
                           : std::string(failure.what());
      result.failed_at = failure.time_reached();
    }
    if (result.failure.empty()) {
      const at::Tensor u = elimination.field(y, elimination.values(t));
      const double peak = u.abs().max().item<double>();
      if (!std::isfinite(peak) || peak > limit) {
        result.failure = "max|u| = " + std::to_string(peak) + " exceeds the blow-up limit " +
                         std::to_string(limit) + " at t = " + std::to_string(t);
        result.failed_at = t;
      } else {
        snapshots[k] = u;
      }
    }
    if (!result.failure.empty()) {
      result.failed_output = k;
      snapshots.slice(0, k).fill_(std::numeric_limits<double>::quiet_NaN());
      break;
    }
  }
  result.steps = integrator.steps();
  result.failed_steps = integrator.failed_steps();
  return result;
}

}  // namespace

Solution solve_bounded(const ChebyshevGrid& grid, const Equation& equation,
                       const BoundaryConditions& conditions, const at::Tensor& u0,
                       const BoundedSolveOptions& options) {
  validate(options);
  const at::Tensor start = (u0.dim() == 1 ? u0.unsqueeze(0) : u0).to(at::kDouble).contiguous();
  if (start.dim() != 2 || start.size(1) != grid.points())
    throw std::invalid_argument("bounded solve: initial condition must have shape [B, " +
                                std::to_string(grid.points()) + "]");
  const std::int64_t members = start.size(0);
  const int order = equation.order();
  std::vector<Equation> equations;
  for (std::int64_t b = 0; b < members; ++b) equations.push_back(member_equation(equation, b));
  const std::vector<std::string> ill_posed =
      members_ill_posed(grid, equations, start, conditions, order, options.drop_diverged);
  for (std::int64_t b = 0; b < members; ++b)
    if (ill_posed[b].empty())
      check_compatibility(grid, conditions, start[b], b, options.compatibility_tolerance);
  const BoundaryElimination elimination(grid, conditions, order);

  const double limit = options.blowup_factor * std::max(1.0, start.abs().max().item<double>());
  Solution solution;
  solution.t = uniform_output_times(options.t_end, options.output_dt, "bounded solve");
  solution.u = at::empty({members, solution.t.size(0), grid.points()}, at::kDouble);
  std::vector<MemberResult> results(static_cast<std::size_t>(members));
  for_each_member(members, [&](std::int64_t b) {
    if (ill_posed[b].empty())
      results[b] = solve_member(equations[b], elimination, start[b], options, limit, solution.u[b]);
    else
      results[b] = not_solved(ill_posed[b], solution.u[b]);
  });

  solution.diverged = at::zeros({members}, at::kBool);
  for (std::int64_t b = 0; b < members; ++b) {
    const MemberResult& r = results[b];
    solution.member_steps.push_back(r.steps);
    solution.steps = std::max(solution.steps, r.steps);
    solution.rejected_steps = std::max(solution.rejected_steps, r.failed_steps);
    solution.failures.push_back(
        r.failure.empty() ? "" : "member " + std::to_string(b) + ": " + r.failure);
    if (r.failure.empty()) continue;
    if (!options.drop_diverged)
      throw SolverDivergence("bounded solve: member " + std::to_string(b) + ": " + r.failure,
                             r.failed_at);
    solution.diverged[b] = true;
  }
  solution.dt = solution.steps > 0 ? options.t_end / static_cast<double>(solution.steps) : 0.0;
  return solution;
}

}  // namespace bhpm::pde
