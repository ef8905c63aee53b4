#include "cli/prediction_summary.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <string>

#include "cli/prediction_shares.h"

namespace bhpm::cli {

void print_summary(const solve::Prediction& prediction, const solve::EnsembleStatistics& statistics,
                   const std::optional<solve::TruthComparison>& comparison, const MpiJob& job) {
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  std::printf("samples: %lld, diverged: %lld, rejected as ill-posed: %lld, repaired: %lld\n",
              static_cast<long long>(ensemble.u.size(0)),
              static_cast<long long>(ensemble.diverged_count()),
              static_cast<long long>(ensemble.rejected_count()),
              static_cast<long long>(ensemble.repaired_count()));
  if (ensemble.repaired_count() > 0)
    std::printf(
        "  repaired: ill-posed along u0, solved with added diffusion a u_xx, a up to %.3g\n",
        ensemble.added_diffusion.max().item<double>());
  const auto members = static_cast<std::int64_t>(ensemble.failures.size());
  for (std::int64_t s = 0; s < members; ++s) {
    if (ensemble.failures[s].empty()) continue;
    const std::string rank =
        job.several() ? " on rank " + std::to_string(rank_of_member(s, members, job.size())) : "";
    std::printf(
        "  sample %lld%s %s: %s\n", static_cast<long long>(s), rank.c_str(),
        ensemble.rejected.defined() && ensemble.rejected[s].item<bool>() ? "rejected" : "diverged",
        ensemble.failures[s].c_str());
  }
  if (!prediction.refinement.empty()) {
    std::int64_t fewest = INT64_MAX, most = 0, unconverged = 0, out_of_budget = 0, out_of_reach = 0;
    double largest_left = 0.0;  // L_c of the unconverged samples
    for (std::size_t s = 0; s < prediction.refinement.size(); ++s) {
      const solve::MemberRefinement& member = prediction.refinement[s];
      fewest = std::min(fewest, member.conditioning_points);
      most = std::max(most, member.conditioning_points);
      const bool open = !member.converged && ensemble.failures[s].empty();
      unconverged += open ? 1 : 0;
      if (open) largest_left = std::max(largest_left, member.expected_variance);
      out_of_budget += member.out_of_budget ? 1 : 0;
      out_of_reach += member.out_of_reach ? 1 : 0;
    }
    std::printf("conditioning points per sample: %lld to %lld; not converged: %lld",
                static_cast<long long>(fewest), static_cast<long long>(most),
                static_cast<long long>(unconverged));
    if (unconverged > 0)
      std::printf(
          " (L_c up to %.3g: posterior variance of f along their paths that the band does not "
          "carry; predict.max_rounds allows more rounds)",
          largest_left);
    if (out_of_budget > 0)
      std::printf(
          " (%lld stopped by predict.time_budget: their solutions rest on fewer "
          "conditioning points than the tolerance asks, so L_c above it)",
          static_cast<long long>(out_of_budget));
    if (out_of_reach > 0)
      std::printf(
          " (%lld took the rounds left at once: on their paths no choice of the points "
          "predict.max_rounds allows could bring L_c under the tolerance)",
          static_cast<long long>(out_of_reach));
    std::printf("\n");
  }
  if (ensemble.steps > 0)
    std::printf("time steps: %lld taken, %lld rejected (all rounds, batch of samples)\n",
                static_cast<long long>(ensemble.steps),
                static_cast<long long>(ensemble.rejected_steps));
  std::printf("ensemble spread: mean std %.4g, max std %.4g\n",
              statistics.standard_deviation.mean().item<double>(),
              statistics.standard_deviation.max().item<double>());
  if (comparison)
    std::printf(
        "against the true solution: relative L2 error of the mean %.4g, RMSE %.4g, "
        "inside the 95%% band %.1f%%\n",
        comparison->relative_l2, comparison->rmse, 100.0 * comparison->band_coverage);
}

void print_coverage_warning(double outside) {
  if (outside <= solve::kCoveredPathTolerance) return;
  std::fprintf(
      stderr,
      "warning: %.1f%% of the prediction's path (x, t) lies outside the data's coverage "
      "(posterior variance of f above a tenth of its prior variance): there the band rests "
      "on the prior, not on the data\n",
      100.0 * outside);
}

}  // namespace bhpm::cli
