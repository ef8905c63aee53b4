#include "pde/member_steps.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "pde/periodic_solve.h"

namespace bhpm::pde {

namespace {

constexpr std::size_t kMostTermsKept = 32;

/// ||a_b - b_b|| / ||b_b|| per member [k] on the CPU (spectral L2 = physical L2 by Parseval).
std::vector<double> relative_differences(const at::Tensor& a, const at::Tensor& b) {
  const at::Tensor size = at::linalg_vector_norm(b, 2, {1}).clamp_min(1e-300);
  const at::Tensor relative = (at::linalg_vector_norm(a - b, 2, {1}) / size).to(at::kCPU);
  return {relative.data_ptr<double>(), relative.data_ptr<double>() + relative.numel()};
}

at::Tensor double_tensor(const std::vector<double>& values, const at::TensorOptions& options) {
  return at::tensor(values, at::kDouble).to(options.device());
}

}  // namespace

MemberSteps::MemberSteps(const PeriodicGrid& grid, const Equation& equation,
                         const SolveOptions& options, std::int64_t members)
    : grid_(grid),
      equation_(equation),
      stepper_options_(options.stepper),
      interval_(options.output_dt),
      check_every_(options.check_every),
      ladders_(static_cast<std::size_t>(members), StepLadder(options)) {}

std::int64_t MemberSteps::most_accepted() const {
  std::int64_t most = 0;
  for (const StepLadder& ladder : ladders_) most = std::max(most, ladder.accepted());
  return most;
}

std::int64_t MemberSteps::most_rejected() const {
  std::int64_t most = 0;
  for (const StepLadder& ladder : ladders_) most = std::max(most, ladder.rejected());
  return most;
}

std::vector<std::int64_t> MemberSteps::accepted() const {
  std::vector<std::int64_t> steps;
  for (const StepLadder& ladder : ladders_) steps.push_back(ladder.accepted());
  return steps;
}

const Etdrk4Stepper& MemberSteps::stepper(int level) {
  auto found = steppers_.find(level);
  if (found != steppers_.end()) return found->second;
  Etdrk4Options options = stepper_options_;
  options.dt = std::ldexp(interval_, -level);
  return steppers_.emplace(level, Etdrk4Stepper(grid_, equation_, options)).first->second;
}

Etdrk4StepCoefficients MemberSteps::coefficients(const std::vector<int>& levels) {
  if (std::all_of(levels.begin(), levels.end(), [&](int a) { return a == levels.front(); }))
    return stepper(levels.front()).coefficients();
  using Coefficient = at::Tensor Etdrk4StepCoefficients::*;
  const auto rows = [&](Coefficient coefficient) {  // [k, n/2+1]: one row per member
    std::vector<at::Tensor> per_member;
    for (int a : levels) per_member.push_back(stepper(a).coefficients().*coefficient);
    return at::stack(per_member);
  };
  using C = Etdrk4StepCoefficients;
  return {rows(&C::e), rows(&C::e2), rows(&C::q), rows(&C::f1), rows(&C::f2), rows(&C::f3)};
}

const NonlinearTerm* MemberSteps::term_for(const std::vector<std::int64_t>& pending,
                                           const at::Tensor& index) {
  if (!equation_.nonlinear) return nullptr;
  if (static_cast<std::size_t>(pending.size()) == ladders_.size()) return equation_.nonlinear.get();
  auto found = terms_.find(pending);
  if (found == terms_.end()) {
    if (terms_.size() >= kMostTermsKept) terms_.clear();
    std::shared_ptr<const NonlinearTerm> selected = equation_.nonlinear->select_members(index);
    found = terms_.emplace(pending, selected ? selected : equation_.nonlinear).first;
  }
  return found->second.get();
}

void MemberSteps::try_step(at::Tensor& v, const std::vector<std::int64_t>& pending, double t_from,
                           std::int64_t output, DivergenceGuard& guard) {
  const at::Tensor index_cpu = at::tensor(pending, at::kLong);
  const at::Tensor index = index_cpu.to(v.device());
  const NonlinearTerm* term = term_for(pending, index_cpu);
  std::vector<int> levels, halves_levels;
  std::vector<double> times, steps, middles, halves;
  for (std::int64_t b : pending) {
    const StepLadder& ladder = ladders_[static_cast<std::size_t>(b)];
    const double h = ladder.step(), t = ladder.time(t_from);
    levels.push_back(ladder.level());
    halves_levels.push_back(ladder.level() + 1);
    times.push_back(t);
    steps.push_back(h);
    middles.push_back(t + 0.5 * h);
    halves.push_back(0.5 * h);
  }
  const at::TensorOptions real = grid_.real_options();
  const at::Tensor start = v.index_select(0, index), t = double_tensor(times, real);
  const at::Tensor half_step = double_tensor(halves, real);
  const Etdrk4Stepper& any = stepper(levels.front());
  const Etdrk4StepCoefficients half_coefficients = coefficients(halves_levels);
  const at::Tensor shared_stage = any.first_stage(start, t, term);  // N(v) at t, used by both
  const at::Tensor whole = any.step_members(start, coefficients(levels), t,
                                            double_tensor(steps, real), term, shared_stage);
  const at::Tensor first =
      any.step_members(start, half_coefficients, t, half_step, term, shared_stage);
  const at::Tensor two_halves =
      any.step_members(first, half_coefficients, double_tensor(middles, real), half_step, term);
  const std::vector<double> error = relative_differences(whole, two_halves);

  std::vector<std::uint8_t> accept(pending.size(), 0);
  for (std::size_t j = 0; j < pending.size(); ++j)
    accept[j] = ladders_[static_cast<std::size_t>(pending[j])].record(error[j]);
  const at::Tensor kept = at::tensor(accept, at::kByte).to(v.device(), at::kBool).unsqueeze(1);
  const at::Tensor richardson = two_halves + (two_halves - whole) / 15.0;  // h^5 terms cancel
  v.index_copy_(0, index, at::where(kept, richardson, start));

  for (std::size_t j = 0; j < pending.size(); ++j) {
    const std::string why =
        ladders_[static_cast<std::size_t>(pending[j])].stop_reason(times[j], error[j]);
    if (!why.empty())
      guard.drop(v, pending[j], why + " in batch member " + std::to_string(pending[j]), times[j],
                 output);
  }
}

void MemberSteps::advance(at::Tensor& v, double t_from, std::int64_t output,
                          DivergenceGuard& guard) {
  for (StepLadder& ladder : ladders_) ladder.start_interval();
  for (std::int64_t trial = 1;; ++trial) {
    const at::Tensor dropped = guard.dropped().to(at::kCPU);
    const bool* is_dropped = dropped.data_ptr<bool>();
    std::vector<std::int64_t> pending;
    for (std::size_t b = 0; b < ladders_.size(); ++b)
      if (!ladders_[b].interval_done() && !is_dropped[b])
        pending.push_back(static_cast<std::int64_t>(b));
    if (pending.empty()) return;
    try_step(v, pending, t_from, output, guard);
    if (trial % check_every_ == 0) guard.check_spectral(v, t_from + interval_, t_from, output);
  }
}

}  // namespace bhpm::pde
