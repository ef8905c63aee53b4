#include "solve/operator_refinement.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <stdexcept>
#include <string>

#include "pde/random.h"

namespace bhpm::solve {

namespace {

void require(bool ok, const std::string& field, const std::string& rule, double value) {
  if (!ok)
    throw std::invalid_argument("refinement: " + field + " " + rule + " (got " +
                                std::to_string(value) + ")");
}

/// `count` rows of v [N, D] drawn uniformly without replacement (all rows when N <= count).
at::Tensor monte_carlo_rows(const at::Tensor& v, std::int64_t count, pde::Rng& rng) {
  if (v.size(0) <= count) return v;
  const std::vector<std::int64_t> rows = rng.sample_without_replacement(v.size(0), count);
  return v.index_select(0, at::tensor(rows, at::kLong));
}

/// Greedy start: n_new times, the Monte Carlo input of largest conditioned variance,
/// which is then conditioned on (as a point of V_new) before the next pick.
at::Tensor greedy_inputs(const gp::ConditionedGp& current, const at::Tensor& v,
                         std::int64_t count) {
  at::Tensor chosen = v.narrow(0, 0, 0);
  for (std::int64_t j = 0; j < count; ++j) {
    const at::Tensor variance =
        gp::conditioned_variance(*current.kernel(), at::cat({current.inputs(), chosen}), v);
    chosen = at::cat({chosen, v[variance.argmax().item<std::int64_t>()].unsqueeze(0)});
  }
  return chosen;
}

}  // namespace

void validate(const RefinementOptions& options) {
  require(std::isfinite(options.tolerance) && options.tolerance > 0.0, "tolerance",
          "must be finite and > 0", options.tolerance);
  require(options.new_points >= 1, "new_points", "must be >= 1", options.new_points);
  require(options.monte_carlo_points >= 1, "monte_carlo_points", "must be >= 1",
          options.monte_carlo_points);
  require(options.max_rounds >= 1, "max_rounds", "must be >= 1", options.max_rounds);
  require(options.descent_steps >= 0, "descent_steps", "must be >= 0", options.descent_steps);
  require(std::isfinite(options.descent_rate) && options.descent_rate > 0.0, "descent_rate",
          "must be finite and > 0", options.descent_rate);
}

at::Tensor expected_variance(const gp::ConditionedGp& current, const at::Tensor& new_inputs,
                             const at::Tensor& v) {
  return gp::conditioned_variance(*current.kernel(), at::cat({current.inputs(), new_inputs}), v)
      .mean();
}

at::Tensor choose_conditioning_inputs(const gp::ConditionedGp& current, const at::Tensor& v,
                                      const RefinementOptions& options) {
  const at::Tensor start = greedy_inputs(current, v, options.new_points);
  if (options.descent_steps == 0) return start;
  // Adam on standardised offsets: V_new = start + spread * delta, one rate for all inputs.
  const at::Tensor spread = v.std(0).clamp_min(1e-12);
  at::Tensor delta = at::zeros_like(start).set_requires_grad(true);
  torch::optim::Adam adam({delta}, torch::optim::AdamOptions(options.descent_rate));
  at::Tensor best = start;
  double best_loss = expected_variance(current, start, v).item<double>();
  for (std::int64_t step = 0; step < options.descent_steps; ++step) {
    const at::Tensor moved = start + spread * delta;
    const at::Tensor loss = expected_variance(current, moved, v);
    const double value = loss.item<double>();
    if (std::isfinite(value) && value < best_loss) {
      best_loss = value;
      best = moved.detach().clone();
    }
    delta.mutable_grad() = torch::autograd::grad({loss}, {delta})[0];
    adam.step();
  }
  return best;
}

RefinedSample refine_operator_sample(gp::ConditionedGp start, const SampleSolver& solve,
                                     const SolutionInputs& inputs_of,
                                     const RefinementOptions& options, std::uint64_t sample) {
  validate(options);
  RefinedSample result{std::move(start), {}, {}, {}, false};
  for (std::int64_t round = 0; round < options.max_rounds; ++round) {
    const at::NoGradGuard no_grad;
    result.solution = solve(result.operator_sample);
    const std::int64_t size = result.operator_sample.size();
    pde::Rng rng(pde::derive_seed(options.seed, "refinement/" + std::to_string(sample),
                                  static_cast<std::uint64_t>(size)));
    result.inputs = monte_carlo_rows(inputs_of(result.solution), options.monte_carlo_points, rng);
    const double l_c = result.operator_sample.variance(result.inputs).mean().item<double>();
    if (!std::isfinite(l_c))
      throw std::runtime_error("refinement of sample " + std::to_string(sample) +
                               ": the expected variance L_c is not finite with " +
                               std::to_string(size) + " conditioning points");
    result.rounds.push_back({size, l_c});
    result.converged = l_c < options.tolerance;
    if (result.converged || round + 1 == options.max_rounds) return result;
    at::Tensor new_inputs;
    {
      const at::AutoGradMode grad(true);
      new_inputs = choose_conditioning_inputs(result.operator_sample, result.inputs, options);
    }
    const at::Tensor new_values = result.operator_sample.sample(new_inputs, rng);
    result.operator_sample = result.operator_sample.extended(new_inputs, new_values);
  }
  return result;  // not reached: the last round returns
}

}  // namespace bhpm::solve
