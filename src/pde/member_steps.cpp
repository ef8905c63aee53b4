#include "pde/member_steps.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <sstream>
#include <utility>

#include "pde/periodic_solve.h"

namespace bhpm::pde {

namespace {

constexpr int kTickBits = 52;  ///< a member's time within an interval in units of H / 2^52
constexpr std::int64_t kWholeInterval = std::int64_t{1} << kTickBits;
constexpr std::size_t kMostTermsKept = 32;

/// The level whose step H / 2^level is the largest at most h (>= 0: never above H).
int level_at_most(double interval, double h) {
  return std::max(0, static_cast<int>(std::ceil(std::log2(interval / h) - 1e-9)));
}

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
      tolerance_(options.tolerance),
      t_end_(options.t_end),
      max_interval_steps_(options.max_interval_steps),
      check_every_(options.check_every),
      floor_level_(
          static_cast<int>(std::floor(std::log2(options.output_dt / (1e-12 * options.t_end))))),
      level_(static_cast<std::size_t>(members),
             level_at_most(options.output_dt, options.stepper.dt)),
      ticks_(static_cast<std::size_t>(members), 0),
      accepted_(static_cast<std::size_t>(members), 0),
      rejected_(static_cast<std::size_t>(members), 0),
      interval_trials_(static_cast<std::size_t>(members), 0) {
  floor_level_ = std::min(floor_level_, kTickBits - 1);
  for (int& a : level_) a = std::min(a, floor_level_);
}

std::int64_t MemberSteps::most_accepted() const {
  return accepted_.empty() ? 0 : *std::max_element(accepted_.begin(), accepted_.end());
}

std::int64_t MemberSteps::most_rejected() const {
  return rejected_.empty() ? 0 : *std::max_element(rejected_.begin(), rejected_.end());
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
  if (static_cast<std::size_t>(pending.size()) == level_.size()) return equation_.nonlinear.get();
  auto found = terms_.find(pending);
  if (found == terms_.end()) {
    if (terms_.size() >= kMostTermsKept) terms_.clear();
    std::shared_ptr<const NonlinearTerm> selected = equation_.nonlinear->select_members(index);
    found = terms_.emplace(pending, selected ? selected : equation_.nonlinear).first;
  }
  return found->second.get();
}

int MemberSteps::next_level(int a, std::int64_t ticks, double error, bool accepted) const {
  // The controller's factor 0.9 (tolerance / error)^(1/5), within [0.2, 4].
  const double factor =
      error > 0.0 ? std::clamp(0.9 * std::pow(tolerance_ / error, 0.2), 0.2, 4.0) : 4.0;
  if (!accepted)
    return std::max(a + 1, level_at_most(interval_, std::ldexp(interval_, -a) * factor));
  // Kept: the next step of the same size is expected within the tolerance too, so the rung
  // is kept, and a coarser one taken only when the factor reaches it (and the member's time
  // is a multiple of its step): never finer after a kept step, which would alternate rungs.
  int level = a;
  while (level > 0 && std::ldexp(1.0, a - level + 1) <= factor &&
         ticks % (kWholeInterval >> (level - 1)) == 0)
    --level;
  return level;
}

void MemberSteps::try_step(at::Tensor& v, const std::vector<std::int64_t>& pending, double t_from,
                           std::int64_t output, DivergenceGuard& guard) {
  const at::Tensor index_cpu = at::tensor(pending, at::kLong);
  const at::Tensor index = index_cpu.to(v.device());
  const NonlinearTerm* term = term_for(pending, index_cpu);
  std::vector<int> levels, halves_levels;
  std::vector<double> times, steps, middles, halves;
  for (std::int64_t b : pending) {
    const auto i = static_cast<std::size_t>(b);
    const double h = std::ldexp(interval_, -level_[i]);
    const double t = t_from + interval_ * std::ldexp(static_cast<double>(ticks_[i]), -kTickBits);
    levels.push_back(level_[i]);
    halves_levels.push_back(level_[i] + 1);
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
  for (std::size_t j = 0; j < pending.size(); ++j) {
    const auto i = static_cast<std::size_t>(pending[j]);
    accept[j] = std::isfinite(error[j]) && error[j] <= tolerance_;
    ++interval_trials_[i];
    if (accept[j]) {
      ticks_[i] += kWholeInterval >> level_[i];
      ++accepted_[i];
    } else {
      ++rejected_[i];
    }
    level_[i] = next_level(level_[i], ticks_[i], std::isfinite(error[j]) ? error[j] : INFINITY,
                           accept[j] != 0);
  }
  const at::Tensor kept = at::tensor(accept, at::kByte).to(v.device(), at::kBool).unsqueeze(1);
  const at::Tensor richardson = two_halves + (two_halves - whole) / 15.0;  // h^5 terms cancel
  v.index_copy_(0, index, at::where(kept, richardson, start));

  for (std::size_t j = 0; j < pending.size(); ++j) {
    const auto i = static_cast<std::size_t>(pending[j]);
    const std::string why = stop_reason(i, times[j], error[j]);
    if (!why.empty())
      guard.drop(v, pending[j], why + " in batch member " + std::to_string(pending[j]), times[j],
                 output);
  }
}

std::string MemberSteps::stop_reason(std::size_t i, double t, double error) const {
  std::ostringstream why;
  if (level_[i] > floor_level_) {
    why << "blew up by t = " << t << ": the adaptive step fell below " << 1e-12 * t_end_
        << " (error estimate " << error << " against tolerance " << tolerance_ << ")";
  } else if (max_interval_steps_ > 0 && ticks_[i] < kWholeInterval &&
             interval_trials_[i] >= max_interval_steps_) {
    why << "stopped at t = " << t << ": " << interval_trials_[i]
        << " adaptive steps tried within one output interval (the most allowed) with steps "
           "down to "
        << std::ldexp(interval_, -level_[i]) << " (error estimate " << error
        << " against tolerance " << tolerance_ << ")";
  }
  return why.str();
}

void MemberSteps::advance(at::Tensor& v, double t_from, std::int64_t output,
                          DivergenceGuard& guard) {
  std::fill(ticks_.begin(), ticks_.end(), 0);
  std::fill(interval_trials_.begin(), interval_trials_.end(), 0);
  for (std::int64_t trial = 1;; ++trial) {
    const at::Tensor dropped = guard.dropped().to(at::kCPU);
    const bool* is_dropped = dropped.data_ptr<bool>();
    std::vector<std::int64_t> pending;
    for (std::size_t b = 0; b < ticks_.size(); ++b)
      if (ticks_[b] < kWholeInterval && !is_dropped[b])
        pending.push_back(static_cast<std::int64_t>(b));
    if (pending.empty()) return;
    try_step(v, pending, t_from, output, guard);
    if (trial % check_every_ == 0) guard.check_spectral(v, t_from + interval_, t_from, output);
  }
}

}  // namespace bhpm::pde
