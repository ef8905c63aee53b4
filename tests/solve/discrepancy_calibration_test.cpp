// Steps 3 and 5 of the discrepancy calibration (solve/discrepancy_calibration.h): tau^2
// minimises sum_{e,k} ln^2((V0_ek + tau^2 G_ek) / E_ek), checked against closed-form
// minimisers, and one experiment whose plain spread exceeds its error does not cancel
// another's deficit; the spread's factor kappa is the geometric mean of E / V0; bins whose
// path left the data's coverage are left out of both fits while any bin is covered; the
// transfer check carries each form fitted one experiment lower over to the leave-one-out
// bins and scores what that costs it.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "solve/discrepancy_calibration.h"

using namespace bhpm;

namespace {

constexpr double kReference = 1e-5;  // tau_e^2 of every spread
constexpr std::int64_t kMembers = 8;

/// One experiment with one time bin whose step-2 quantities are E, V0 and G exactly:
/// squared_error carries the V0 / S that the fit removes, variance_with = V0 + G tau_e^2.
solve::CandidateSpread one_bin(double error, double without, double growth) {
  solve::CandidateSpread spread;
  spread.sound_samples = kMembers;
  spread.reference_variance = kReference;
  spread.points = {100};
  spread.squared_error = {error + without / kMembers};
  spread.variance_without = {without};
  spread.variance_with = {without + growth * kReference};
  return spread;
}

}  // namespace

TEST(DiscrepancyFit, one_bin_gets_the_variance_that_makes_spread_equal_error) {
  // V0 + tau^2 G = E: tau^2 = (E - V0) / G = (5e-6 - 1e-6) / 0.2.
  const solve::CandidateFit fit = solve::fit_candidate(0.5, {one_bin(5e-6, 1e-6, 0.2)}, 0.0, 1e-5);
  EXPECT_NEAR(fit.variance / 2e-5, 1.0, 1e-8);
  EXPECT_NEAR(fit.misfit, 0.0, 1e-14);
  EXPECT_EQ(fit.timescale, 0.5);
}

TEST(DiscrepancyFit, bins_with_one_spread_meet_at_the_geometric_mean_of_their_errors) {
  // Equal V0 and G: the spread s = V0 + tau^2 G minimises ln^2(s / E1) + ln^2(s / E2) at
  // s = sqrt(E1 E2) = 8e-6, so tau^2 = (8e-6 - 1e-6) / 0.5; measurement noise epsilon^2
  // is removed from both errors first.
  const double noise = 1e-7;
  const solve::CandidateFit fit = solve::fit_candidate(
      0.0, {one_bin(4e-6 + noise, 1e-6, 0.5), one_bin(16e-6 + noise, 1e-6, 0.5)}, noise, 1e-5);
  EXPECT_NEAR(fit.variance / 1.4e-5, 1.0, 1e-8);
  EXPECT_NEAR(fit.misfit, 2.0 * std::pow(std::log(2.0), 2), 1e-12);
}

TEST(DiscrepancyFit, an_experiment_with_spread_to_spare_does_not_cancel_another_s_deficit) {
  // Pooled variances (the earlier rule) give E - V0 = (1 + 9) / 2 - (10 + 1) / 2 < 0, so
  // tau^2 = 0; the log-ratio misfit still widens the second experiment's band: its
  // derivative at 0 is 2 ln(10) / 10 - 2 ln(9) < 0.
  const solve::CandidateFit fit =
      solve::fit_candidate(0.0, {one_bin(1e-6, 10e-6, 1.0), one_bin(9e-6, 1e-6, 1.0)}, 0.0, 1e-5);
  EXPECT_GT(fit.variance, 1e-6);
  EXPECT_LT(fit.variance, 8e-6);  // less than the second experiment alone would take
  // The minimiser: d/dtau^2 [ln^2(10 + x) + ln^2((1 + x) / 9)] = 0 (units of 1e-6).
  const double x = fit.variance / 1e-6;
  EXPECT_NEAR(std::log(10 + x) / (10 + x) + std::log((1 + x) / 9) / (1 + x), 0.0, 1e-8);
}

TEST(DiscrepancyFit, no_variance_when_the_spread_already_covers_the_error_or_nothing_is_left) {
  const solve::CandidateFit covered =
      solve::fit_candidate(0.0, {one_bin(1e-6, 2e-6, 1.0), one_bin(3e-6, 4e-6, 0.5)}, 0.0, 1e-5);
  EXPECT_EQ(covered.variance, 0.0);
  EXPECT_NEAR(covered.misfit, std::pow(std::log(2.0), 2) + std::pow(std::log(4.0 / 3.0), 2), 1e-12);
  solve::CandidateSpread left_out = one_bin(5e-6, 1e-6, 0.2);
  left_out.sound_samples = 1;  // no spread to compare
  const solve::CandidateFit none = solve::fit_candidate(0.0, {left_out}, 0.0, 1e-5);
  EXPECT_EQ(none.variance, 0.0);
  EXPECT_TRUE(std::isnan(none.misfit));
}

TEST(InflationFit, is_the_geometric_mean_of_error_over_spread_and_never_narrows) {
  // E / V0 = 4 and 16: kappa = 8, misfit ln^2(8 / 4) + ln^2(8 / 16).
  const solve::InflationFit fit =
      solve::fit_inflation({one_bin(4e-6, 1e-6, 0.0), one_bin(32e-6, 2e-6, 0.0)}, 0.0);
  EXPECT_NEAR(fit.factor, 8.0, 1e-12);
  EXPECT_NEAR(fit.misfit, 2.0 * std::pow(std::log(2.0), 2), 1e-12);
  // A spread wider than the error keeps the posterior's (kappa = 1), with its misfit.
  const solve::InflationFit wide = solve::fit_inflation({one_bin(1e-6, 4e-6, 0.0)}, 0.0);
  EXPECT_EQ(wide.factor, 1.0);
  EXPECT_NEAR(wide.misfit, std::pow(std::log(4.0), 2), 1e-12);
  solve::CandidateSpread left_out = one_bin(5e-6, 1e-6, 0.0);
  left_out.sound_samples = 1;
  EXPECT_TRUE(std::isnan(solve::fit_inflation({left_out}, 0.0).misfit));
}

TEST(DiscrepancyFit, bins_off_the_data_are_left_out_while_any_bin_is_covered) {
  // Experiment 1's bin is covered (E / V0 = 4), experiment 2's left the coverage on 5 % of
  // its path (E / V0 = 1 / 16: the prior's extrapolation): kappa = 4 and tau^2 = 3e-6 / G
  // from the first alone, with the second counted as left out.
  solve::CandidateSpread off_data = one_bin(1e-6, 16e-6, 1.0);
  off_data.outside_coverage = {0.05};
  solve::CandidateSpread covered = one_bin(4e-6, 1e-6, 0.5);
  covered.outside_coverage = {solve::kCoveredPathTolerance};
  const solve::InflationFit inflation = solve::fit_inflation({covered, off_data}, 0.0);
  EXPECT_NEAR(inflation.factor, 4.0, 1e-12);
  EXPECT_NEAR(inflation.misfit, 0.0, 1e-14);
  EXPECT_EQ(inflation.bins, 1);
  EXPECT_EQ(inflation.off_data_bins, 1);
  const solve::CandidateFit fit = solve::fit_candidate(0.0, {covered, off_data}, 0.0, 1e-5);
  EXPECT_NEAR(fit.variance / 6e-6, 1.0, 1e-8);
  EXPECT_EQ(fit.bins, 1);
  EXPECT_EQ(fit.off_data_bins, 1);
  // With no covered bin left, every bin is fitted: kappa = sqrt(1 / 16 * 4) -> 1 (never
  // narrows), and none counts as left out.
  covered.outside_coverage = {0.02};
  const solve::InflationFit all = solve::fit_inflation({covered, off_data}, 0.0);
  EXPECT_EQ(all.factor, 1.0);
  EXPECT_EQ(all.bins, 2);
  EXPECT_EQ(all.off_data_bins, 0);
}

TEST(TransferCheck, carries_each_fit_one_experiment_lower_over_at_a_loss) {
  // Without 2 experiments the plain spread is V0 = 4e-6 and the error E = 16e-6 (G = 1):
  // kappa = 4 and tau^2 = 12e-6. With one experiment more, V0 = 1e-6.
  const std::vector<solve::CandidateSpread> fewer = {one_bin(16e-6, 4e-6, 1.0)};
  // The error shrank with the spread (E / V0 = 4 again; the values fitted there: kappa = 4,
  // tau^2 = 3e-6): kappa carries over exactly, tau^2 makes the spread 13 / 4 of the error.
  const std::vector<solve::CandidateSpread> scaled = {one_bin(4e-6, 1e-6, 1.0)};
  const solve::TransferCheck ratio =
      solve::check_transfer(fewer, scaled, scaled, 4.0, 3e-6, 0.0, 1e-5);
  EXPECT_NEAR(ratio.inflation.factor, 4.0, 1e-12);
  EXPECT_NEAR(ratio.discrepancy.variance / 12e-6, 1.0, 1e-8);
  EXPECT_NEAR(ratio.inflation_loss, 0.0, 1e-14);
  EXPECT_NEAR(ratio.discrepancy_misfit, std::pow(std::log(13.0 / 4.0), 2), 1e-8);
  EXPECT_NEAR(ratio.discrepancy_loss, ratio.discrepancy_misfit, 1e-14);
  EXPECT_TRUE(ratio.fits_inside_bounds());
  EXPECT_TRUE(ratio.decides());
  EXPECT_EQ(ratio.experiments.size(), 1U);
  // The error kept its excess over the spread (E = V0 + 12e-6; fitted there: kappa = 13,
  // tau^2 = 12e-6): tau^2 carries over, kappa makes the spread 4 / 13 of the error.
  const std::vector<solve::CandidateSpread> shifted = {one_bin(13e-6, 1e-6, 1.0)};
  const solve::TransferCheck excess =
      solve::check_transfer(fewer, shifted, shifted, 13.0, 12e-6, 0.0, 1e-5);
  EXPECT_NEAR(excess.discrepancy_loss, 0.0, 1e-12);
  EXPECT_NEAR(excess.inflation_loss, std::pow(std::log(4.0 / 13.0), 2), 1e-12);
  // Nothing sound one experiment lower: no fit to carry over, so the check cannot decide.
  solve::CandidateSpread unsound = fewer.front();
  unsound.sound_samples = 1;
  EXPECT_FALSE(solve::check_transfer({unsound}, scaled, scaled, 4.0, 3e-6, 0.0, 1e-5).decides());
}

TEST(TransferCheck, steps_aside_when_a_fit_one_experiment_lower_sits_at_its_bound) {
  const std::vector<solve::CandidateSpread> loo = {one_bin(4e-6, 1e-6, 1.0)};  // kappa 4
  // One level lower the plain spread exceeds the error (E / V0 = 1 / 2): kappa = 1 and
  // tau^2 = 0 are set by their bounds, and their losses, though finite, say nothing.
  const solve::TransferCheck both =
      solve::check_transfer({one_bin(1e-6, 2e-6, 1.0)}, loo, loo, 4.0, 3e-6, 0.0, 1e-5);
  EXPECT_EQ(both.inflation.factor, 1.0);
  EXPECT_EQ(both.discrepancy.variance, 0.0);
  EXPECT_TRUE(both.losses_finite());
  EXPECT_FALSE(both.fits_inside_bounds());
  EXPECT_FALSE(both.decides());
  // Two bins, E / V0 = 4 and 1 / 8 with G = 1: ln kappa = ln(1 / 2) / 2 < 0, so kappa = 1;
  // d misfit / d tau^2 at 0 = 2 ln(1 / 4) / 1e-6 + 2 ln 8 / 8e-6 < 0, so tau^2 > 0.
  const std::vector<solve::CandidateSpread> mixed = {one_bin(4e-6, 1e-6, 1.0),
                                                     one_bin(1e-6, 8e-6, 1.0)};
  const solve::TransferCheck one = solve::check_transfer(mixed, loo, loo, 4.0, 3e-6, 0.0, 1e-5);
  EXPECT_EQ(one.inflation.factor, 1.0);
  EXPECT_GT(one.discrepancy.variance, 0.0);
  EXPECT_TRUE(one.losses_finite());
  EXPECT_FALSE(one.decides());
}

TEST(TransferCheck, scores_what_carrying_over_costs_not_the_scatter_no_value_removes) {
  // Two experiments with E / V0 = 4 and 16 at both levels, the spread 2x wider one
  // experiment lower, G = 1 and 4 (units of 1e-6). kappa = 8 at both levels: it carries
  // over without loss, though its misfit keeps the scatter 2 ln^2 2. tau^2 fits the
  // leave-one-out bins more closely, but the value fitted one level lower, twice theirs
  // (the bins there are theirs scaled by 2), makes their spread's variance 1.8-2 times
  // their error: it loses, though its misfit there stays below kappa's. The loss is what
  // the check compares.
  const auto bins = [](double without) {
    return std::vector<solve::CandidateSpread>{one_bin(4 * without, without, 1.0),
                                               one_bin(16 * without, without, 4.0)};
  };
  const std::vector<solve::CandidateSpread> fewer = bins(2e-6), loo = bins(1e-6);
  const solve::InflationFit inflation = solve::fit_inflation(loo, 0.0);
  const solve::CandidateFit discrepancy = solve::fit_candidate(0.0, loo, 0.0, 1e-5);
  EXPECT_NEAR(inflation.factor, 8.0, 1e-12);
  const solve::TransferCheck check =
      solve::check_transfer(fewer, loo, loo, inflation.factor, discrepancy.variance, 0.0, 1e-5);
  EXPECT_NEAR(check.inflation.factor, 8.0, 1e-12);
  EXPECT_NEAR(check.inflation_misfit, 2.0 * std::pow(std::log(2.0), 2), 1e-12);
  EXPECT_NEAR(check.inflation_loss, 0.0, 1e-12);
  EXPECT_NEAR(check.discrepancy.variance / discrepancy.variance, 2.0, 1e-8);
  EXPECT_LT(check.discrepancy_misfit, check.inflation_misfit);
  EXPECT_GT(check.discrepancy_loss, 0.3);
  EXPECT_NEAR(check.discrepancy_loss, check.discrepancy_misfit - discrepancy.misfit, 1e-12);
}
