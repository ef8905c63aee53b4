#include "pde/divergence_guard.h"

#include <ATen/ATen.h>

#include <cmath>
#include <sstream>

#include "pde/periodic_solve.h"

namespace bhpm::pde {

namespace {

/// Members of u [B, ...] (real or complex) that are not finite or exceed `limit`: [B] bool.
at::Tensor unsound_members(const at::Tensor& u, double limit) {
  const at::Tensor peak = u.abs().flatten(1).amax(1);
  return (~at::isfinite(peak)) | (peak > limit);
}

/// The peak max|u| of member b of u [B, n] for blow_up_text (not finite when u is not).
double member_peak(const at::Tensor& u, std::int64_t b) { return u[b].abs().max().item<double>(); }

[[noreturn]] void diverged(const at::Tensor& u, double t_bad, double t_good, double limit) {
  const auto index = unsound_members(u, limit).nonzero();
  const std::int64_t b = index.numel() > 0 ? index[0][0].item<std::int64_t>() : 0;
  throw SolverDivergence("solution " + blow_up_text(t_bad, t_good, member_peak(u, b), b, limit),
                         t_good);
}

}  // namespace

std::string unsound_member_text(double peak, std::int64_t b, double limit) {
  std::ostringstream text;
  if (std::isfinite(peak))
    text << "max|u| = " << peak << " in batch member " << b << " (limit " << limit << ")";
  else
    text << "u is NaN or infinite in batch member " << b;
  return text.str();
}

std::string blow_up_text(double t_bad, double t_good, double peak, std::int64_t b, double limit) {
  std::ostringstream text;
  text << "blew up by t = " << t_bad << " (last sound state at t = " << t_good
       << "): " << unsound_member_text(peak, b, limit);
  return text.str();
}

DivergenceGuard::DivergenceGuard(const PeriodicGrid& grid, std::int64_t members, double limit,
                                 bool drop)
    : grid_(grid),
      limit_(limit),
      drop_(drop),
      dropped_(at::zeros({members}, grid.real_options().dtype(at::kBool))),
      first_bad_output_(static_cast<std::size_t>(members), -1),
      failures_(static_cast<std::size_t>(members)) {}

void DivergenceGuard::check_spectral(at::Tensor& v, double t_bad, double t_good,
                                     std::int64_t output) {
  const at::Tensor bad = unsound_members(v, INFINITY) & ~dropped_;
  if (bad.any().item<bool>()) handle(v, grid_.to_physical(v), bad, t_bad, t_good, output);
}

void DivergenceGuard::check_physical(at::Tensor& v, const at::Tensor& u, double t, double t_good,
                                     std::int64_t output) {
  const at::Tensor bad = unsound_members(u, limit_) & ~dropped_;
  if (bad.any().item<bool>()) handle(v, u, bad, t, t_good, output);
}

void DivergenceGuard::mask(at::Tensor& snapshots) const {
  for (std::size_t b = 0; b < first_bad_output_.size(); ++b)
    if (first_bad_output_[b] >= 0)
      snapshots[static_cast<std::int64_t>(b)].slice(0, first_bad_output_[b]).fill_(NAN);
}

void DivergenceGuard::drop(at::Tensor& v, std::int64_t b, const std::string& why, double t,
                           std::int64_t output) {
  if (!drop_) throw SolverDivergence(why, t);
  failures_[static_cast<std::size_t>(b)] = why;
  first_bad_output_[static_cast<std::size_t>(b)] = output;
  dropped_[b] = true;
  v[b].zero_();
}

void DivergenceGuard::handle(at::Tensor& v, const at::Tensor& u, const at::Tensor& bad,
                             double t_bad, double t_good, std::int64_t output) {
  if (!drop_) diverged(u, t_bad, t_good, limit_);
  const at::Tensor index = bad.nonzero().flatten();
  for (std::int64_t i = 0; i < index.numel(); ++i) {
    const std::int64_t b = index[i].item<std::int64_t>();
    drop(v, b, blow_up_text(t_bad, t_good, member_peak(u, b), b, limit_), t_bad, output);
  }
}

}  // namespace bhpm::pde
