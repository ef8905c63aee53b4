#include "solve/operator_refinement.h"

#include <ATen/ATen.h>
#include <torch/autograd.h>
#include <torch/optim/adam.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "gp/extended_variance.h"
#include "pde/member_threads.h"
#include "util/option_check.h"
#include "util/random.h"
#include "util/stopwatch.h"

namespace bhpm::solve {

namespace {

/// `count` rows of v [N, D] drawn uniformly without replacement (all rows when N <= count).
at::Tensor monte_carlo_rows(const at::Tensor& v, std::int64_t count, util::Rng& rng) {
  if (v.size(0) <= count) return v;
  const std::vector<std::int64_t> rows = rng.sample_without_replacement(v.size(0), count);
  return v.index_select(0, at::tensor(rows, at::kLong).to(v.device()));
}

/// Greedy start: n_new times, the Monte Carlo input of largest conditioned variance,
/// which is then conditioned on (as a point of V_new) before the next pick.
at::Tensor greedy_inputs(const gp::ExtendedVariance& variance_after, const at::Tensor& v,
                         std::int64_t count) {
  at::Tensor chosen = v.narrow(0, 0, 0);
  for (std::int64_t j = 0; j < count; ++j) {
    const at::Tensor variance = variance_after(chosen);
    chosen = at::cat({chosen, v[variance.argmax().item<std::int64_t>()].unsqueeze(0)});
  }
  return chosen;
}

/// Step 3's choice of `count` new inputs on the Monte Carlo inputs v: the greedy start, then
/// Adam down the gradient of L_c(V_c u V_new) (`options.descent_steps` steps).
at::Tensor descend_from_greedy(const gp::ExtendedVariance& variance_after, const at::Tensor& v,
                               std::int64_t count, const RefinementOptions& options) {
  const at::Tensor start = greedy_inputs(variance_after, v, count);
  if (options.descent_steps == 0) return start;
  // Adam on standardised offsets: V_new = start + spread * delta, one rate for all inputs.
  const at::Tensor spread = v.std(0).clamp_min(1e-12);
  at::Tensor delta = at::zeros_like(start).set_requires_grad(true);
  torch::optim::Adam adam({delta}, torch::optim::AdamOptions(options.descent_rate));
  at::Tensor best = start;
  double best_loss = variance_after(start).mean().item<double>();
  for (std::int64_t step = 0; step < options.descent_steps; ++step) {
    const at::Tensor moved = start + spread * delta;
    const at::Tensor loss = variance_after(moved).mean();
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

}  // namespace

void validate(const RefinementOptions& options) {
  const std::string owner = "Algorithm 1";
  util::require_positive(options.tolerance, owner, "tolerance");
  util::require_at_least(options.new_points, 1, owner, "new_points");
  util::require_at_least(options.monte_carlo_points, 1, owner, "monte_carlo_points");
  util::require_at_least(options.max_rounds, 1, owner, "max_rounds");
  util::require_at_least(options.descent_steps, 0, owner, "descent_steps");
  util::require_positive(options.descent_rate, owner, "descent_rate");
  util::require_non_negative(options.time_budget, owner, "time_budget", "(0: no limit)");
  util::require_at_least(options.first_member, 0, owner, "first_member");
}

EnsembleSolver counting_steps(EnsembleSolver solve, StepCount& count) {
  return [solve = std::move(solve), &count](std::shared_ptr<const gp::FunctionSamples> samples) {
    EnsembleSolution solved = solve(std::move(samples));
    count.steps += solved.steps;
    count.rejected_steps += solved.rejected_steps;
    return solved;
  };
}

at::Tensor expected_variance(const gp::ConditionedGp& current, const at::Tensor& new_inputs,
                             const at::Tensor& v) {
  return gp::ExtendedVariance(current, v)(new_inputs).mean();
}

at::Tensor choose_conditioning_inputs(const gp::ConditionedGp& current, const at::Tensor& v,
                                      const RefinementOptions& options) {
  return descend_from_greedy(gp::ExtendedVariance(current, v), v, options.new_points, options);
}

namespace {

/// The rounds whose points a member out of reach takes at once: all the rounds left, unless
/// their points outnumber its conditioning set (beyond it the block update of the factor
/// costs more than factoring afresh, and the greedy choice grows with the cube), and then
/// as many as it holds or one more round than it has run, whichever is more.
std::int64_t lumped_rounds(const RefinedSample& member, std::int64_t rounds_left,
                           std::int64_t new_points) {
  const std::int64_t affordable = std::max(member.operator_sample.size() / new_points,
                                           static_cast<std::int64_t>(member.rounds.size()) + 1);
  return std::min(rounds_left, affordable);
}

/// Step 3 for one member with `rounds_left` solves to come: new inputs, their joint draw, the
/// extended conditioning set. A member whose L_c no new_points x rounds_left inputs could
/// bring under the tolerance on its current path (ExtendedVariance::least_mean) is marked
/// out of reach and takes lumped_rounds' points at once (the budget it was allowed, in one step).
void add_conditioning_points(RefinedSample& member, std::int64_t rounds_left,
                             const RefinementOptions& options, util::Rng& rng) {
  at::Tensor new_inputs;
  {
    const at::AutoGradMode grad(true);
    const gp::ExtendedVariance variance_after(member.operator_sample, member.inputs);
    member.out_of_reach =
        variance_after.least_mean(options.new_points * rounds_left) >= options.tolerance;
    const std::int64_t rounds =
        member.out_of_reach ? lumped_rounds(member, rounds_left, options.new_points) : 1;
    new_inputs =
        descend_from_greedy(variance_after, member.inputs, options.new_points * rounds, options);
  }
  const at::Tensor new_values = member.operator_sample.sample(new_inputs, rng);
  member.operator_sample = member.operator_sample.extended(new_inputs, new_values);
}

/// Step 1's result for the member in row `row` of the batch: its solution and growth;
/// false (with the reason recorded) when it blew up or was rejected.
bool take_solution(RefinedSample& member, const EnsembleSolution& solved, std::size_t row) {
  const auto index = static_cast<std::int64_t>(row);
  member.solution = solved.u[index];
  if (solved.growth.defined()) member.growth = solved.growth[index].item<double>();
  member.added_diffusion =
      solved.added_diffusion.defined() ? solved.added_diffusion[index].item<double>() : 0.0;
  if (!solved.left_out()[index].item<bool>()) return true;
  member.failure = solved.failures[row];
  member.rejected = solved.rejected.defined() && solved.rejected[index].item<bool>();
  return false;
}

/// Step 2 for sample `sample`: draws its Monte Carlo inputs, records and returns L_c.
/// Throws std::runtime_error naming the sample when L_c is not finite.
double measure_expected_variance(RefinedSample& member, std::size_t sample,
                                 const SolutionInputs& inputs_of, const RefinementOptions& options,
                                 util::Rng& rng) {
  const std::int64_t size = member.operator_sample.size();
  member.inputs = monte_carlo_rows(inputs_of(member.solution), options.monte_carlo_points, rng);
  const double l_c = member.operator_sample.variance(member.inputs).mean().item<double>();
  if (!std::isfinite(l_c))
    throw std::runtime_error("refinement of sample " + std::to_string(sample) +
                             ": the expected variance L_c is not finite with " +
                             std::to_string(size) + " conditioning points");
  member.rounds.push_back({size, l_c});
  return l_c;
}

double median(std::vector<double> values) {
  if (values.empty()) return NAN;
  const auto middle = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), middle, values.end());
  return *middle;
}

/// The largest conditioning set among members[rows], plus `added` points each.
std::int64_t largest_set(const std::vector<RefinedSample>& members,
                         const std::vector<std::size_t>& rows, std::int64_t added) {
  std::int64_t largest = 0;
  for (std::size_t s : rows) largest = std::max(largest, members[s].operator_sample.size());
  return largest + added;
}

/// One round's measurements, from which the next rounds' time is estimated.
struct RoundCost {
  double seconds = 0;        ///< from the previous round's point choice to its L_c
  std::size_t solved = 0;    ///< members in its batch
  std::int64_t largest = 0;  ///< their largest conditioning set
};

/// The status after `round`, members `refining` going on. A round costs about (members) x
/// (largest conditioning set): the batched kernel product of every solver stage. The
/// estimate for the rounds left adds new_points to the largest set per round.
RefinementStatus round_status(std::int64_t round, const RoundCost& cost,
                              const std::vector<RefinedSample>& members,
                              const std::vector<std::size_t>& refining,
                              const std::vector<double>& variances, double elapsed,
                              const RefinementOptions& options) {
  RefinementStatus status{round, cost.solved, refining.size(), median(variances), elapsed,
                          0.0,   false};
  if (refining.empty()) return status;
  const double next_largest =
      static_cast<double>(largest_set(members, refining, options.new_points));
  const double next = cost.seconds * static_cast<double>(refining.size()) /
                      static_cast<double>(cost.solved) * next_largest /
                      static_cast<double>(std::max<std::int64_t>(cost.largest, 1));
  const auto rounds_left = static_cast<double>(options.max_rounds - round - 1);
  status.seconds_left =
      next * (rounds_left + static_cast<double>(options.new_points) * rounds_left *
                                (rounds_left - 1.0) / (2.0 * next_largest));
  if (options.time_budget > 0.0) {
    status.budget_reached = elapsed + next > options.time_budget;
    status.seconds_left =
        status.budget_reached ? 0.0 : std::min(status.seconds_left, options.time_budget - elapsed);
  }
  return status;
}

/// `samples` of the starts `active`, with their model discrepancy (member first + s for start
/// s) when there is one.
std::shared_ptr<const gp::FunctionSamples> with_discrepancy(
    std::shared_ptr<const gp::FunctionSamples> samples,
    const std::shared_ptr<const gp::DiscrepancyField>& discrepancy,
    const std::vector<std::size_t>& active, std::int64_t first) {
  if (!discrepancy) return samples;
  std::vector<std::int64_t> members;
  for (const std::size_t s : active) members.push_back(first + static_cast<std::int64_t>(s));
  return std::make_shared<gp::SamplesWithDiscrepancy>(std::move(samples), discrepancy,
                                                      at::tensor(members, at::kLong));
}

}  // namespace

std::vector<RefinedSample> refine_operator_samples(
    std::vector<gp::ConditionedGp> starts, const EnsembleSolver& solve,
    const SolutionInputs& inputs_of, const RefinementOptions& options,
    const RefinementProgress& progress, std::shared_ptr<const gp::DiscrepancyField> discrepancy) {
  validate(options);
  const std::int64_t first = options.first_member;
  const std::int64_t last = first + static_cast<std::int64_t>(starts.size());
  if (discrepancy && discrepancy->count() < last)
    throw std::invalid_argument("Algorithm 1: the model discrepancy has " +
                                std::to_string(discrepancy->count()) + " members for " +
                                "operator samples " + std::to_string(first) + ".." +
                                std::to_string(last - 1));
  std::vector<RefinedSample> members;
  for (gp::ConditionedGp& start : starts)
    members.push_back({std::move(start), {}, {}, {}, false, false, false, "", false, NAN});
  std::vector<std::size_t> active(members.size());
  for (std::size_t s = 0; s < members.size(); ++s) active[s] = s;

  const at::NoGradGuard no_grad;
  const util::Stopwatch stopwatch;
  util::Stopwatch round_stopwatch;
  for (std::int64_t round = 0; round < options.max_rounds && !active.empty(); ++round) {
    std::vector<gp::ConditionedGp> batch;
    for (std::size_t s : active) batch.push_back(members[s].operator_sample);
    const EnsembleSolution solved = solve(with_discrepancy(
        std::make_shared<gp::ConditionedSamples>(std::move(batch)), discrepancy, active, first));
    std::vector<std::size_t> refining;
    std::vector<util::Rng> streams;  // each refining member's, for its new points
    std::vector<double> variances;
    for (std::size_t i = 0; i < active.size(); ++i) {
      RefinedSample& member = members[active[i]];
      if (!take_solution(member, solved, i)) continue;
      const std::size_t id = static_cast<std::size_t>(first) + active[i];  // in the ensemble
      util::Rng rng(util::derive_seed(options.seed, "refinement/" + std::to_string(id),
                                      static_cast<std::uint64_t>(member.operator_sample.size())));
      variances.push_back(measure_expected_variance(member, id, inputs_of, options, rng));
      if (progress.member) progress.member(id, member.rounds.back());
      member.converged = variances.back() < options.tolerance;
      if (member.converged || member.out_of_reach || round + 1 == options.max_rounds) continue;
      refining.push_back(active[i]);
      streams.push_back(std::move(rng));
    }
    const RoundCost cost{round_stopwatch.seconds(), active.size(), largest_set(members, active, 0)};
    const RefinementStatus status =
        round_status(round, cost, members, refining, variances, stopwatch.seconds(), options);
    if (progress.round) progress.round(status);
    if (status.budget_reached) {
      for (std::size_t s : refining) members[s].out_of_budget = true;
      break;
    }
    round_stopwatch.restart();
    // Each member has its own random stream: the members refine on any thread alike.
    const std::int64_t rounds_left = options.max_rounds - round - 1;
    pde::for_each_member(static_cast<std::int64_t>(refining.size()), [&](std::int64_t k) {
      const auto index = static_cast<std::size_t>(k);
      add_conditioning_points(members[refining[index]], rounds_left, options, streams[index]);
    });
    active = std::move(refining);
  }
  return members;
}

}  // namespace bhpm::solve
