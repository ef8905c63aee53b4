#pragma once
/// The solver's watch over a batch's members (pde/periodic_solve.h): a member whose state is
/// not finite or exceeds the blow-up limit either ends the solve (SolverDivergence, naming
/// the time and the member) or, in drop mode, is dropped while the others go on.

#include <ATen/core/Tensor.h>

#include <cstdint>
#include <string>
#include <vector>

#include "pde/periodic_grid.h"

namespace bhpm::pde {

/// "max|u| = P in batch member b (limit L)", or "u is NaN or infinite in batch member b" when
/// the peak P is not finite.
std::string unsound_member_text(double peak, std::int64_t b, double limit);
/// "blew up by t = T (last sound state at t = G): " + unsound_member_text(...): why a
/// member is dropped (the whole solve's error says "solution " before it).
std::string blow_up_text(double t_bad, double t_good, double peak, std::int64_t b, double limit);

/// Checks the state v (spectral) or u (physical) of every member: throws, or in drop mode
/// zeroes the unsound members of v, records why and returns.
class DivergenceGuard {
 public:
  /// `members` B, `limit` the largest max|u| allowed, `drop` the mode.
  DivergenceGuard(const PeriodicGrid& grid, std::int64_t members, double limit, bool drop);

  /// Spectral state v [B, n/2+1] between output times (non-finite values only).
  void check_spectral(at::Tensor& v, double t_bad, double t_good, std::int64_t output);
  /// Physical state u = to_physical(v) [B, n] at an output time.
  void check_physical(at::Tensor& v, const at::Tensor& u, double t, double t_good,
                      std::int64_t output);
  /// Marks the dropped members' snapshots [B, T, n] NaN from their first unsound output.
  void mask(at::Tensor& snapshots) const;
  /// Drops member b (drop mode only; otherwise throws SolverDivergence with `why`).
  void drop(at::Tensor& v, std::int64_t b, const std::string& why, double t, std::int64_t output);
  /// [B] bool: the members dropped so far.
  const at::Tensor& dropped() const { return dropped_; }
  /// [B]: why member b was dropped, "" if it was not.
  const std::vector<std::string>& failures() const { return failures_; }

 private:
  void handle(at::Tensor& v, const at::Tensor& u, const at::Tensor& bad, double t_bad,
              double t_good, std::int64_t output);

  const PeriodicGrid& grid_;
  double limit_;
  bool drop_;
  at::Tensor dropped_;
  std::vector<std::int64_t> first_bad_output_;
  std::vector<std::string> failures_;
};

}  // namespace bhpm::pde
