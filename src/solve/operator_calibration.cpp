#include "solve/operator_calibration.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "solve/discrepancy_calibration.h"
#include "util/scalar_minimisation.h"

namespace bhpm::solve {

namespace {

constexpr const char* kWhere = "operator calibration";

void require_rows(const gp::PosteriorResiduals& e) {
  const std::int64_t p = e.residual.defined() ? e.residual.numel() : 0;
  if (p < 1 || e.residual.dim() != 1 || !e.deviations.defined() || e.deviations.dim() != 2 ||
      e.deviations.size(1) != p || e.deviations.size(0) < 1 || e.x.numel() != p ||
      e.t.numel() != p || (e.in_sample.defined() && e.in_sample.sizes() != e.residual.sizes()) ||
      (e.inducing_deviations.defined() && e.inducing_deviations.sizes() != e.deviations.sizes()))
    throw std::invalid_argument(
        std::string(kWhere) +
        ": residual [P], deviations [S, P], x, t, in_sample [P] and inducing_deviations [S, P] "
        "must agree");
  if (!(e.x_max > e.x_min && e.t_max > e.t_min))
    throw std::invalid_argument(std::string(kWhere) + ": the window has no extent");
  const bool inside = ((e.x >= e.x_min) & (e.x <= e.x_max) & (e.t >= e.t_min) & (e.t <= e.t_max))
                          .all()
                          .item<bool>();
  if (!inside) throw std::invalid_argument(std::string(kWhere) + ": rows outside the window");
}

/// The cell of every row [P] (int64): x part * kTimeBins + time bin.
at::Tensor cell_index(const gp::PosteriorResiduals& e) {
  const auto part = [](const at::Tensor& v, double low, double high, std::int64_t parts) {
    return ((v - low) / (high - low) * static_cast<double>(parts))
        .floor()
        .clamp(0, static_cast<double>(parts - 1))
        .to(at::kLong);
  };
  return part(e.x, e.x_min, e.x_max, kSpaceCells) * kTimeBins +
         part(e.t, e.t_min, e.t_max, kTimeBins);
}

/// The mean over each time bin's kept cells of `per_cell` [kSpaceCells * kTimeBins] (NaN
/// for a bin without any).
std::vector<double> bin_means(const at::Tensor& per_cell, const at::Tensor& kept) {
  const at::Tensor bin = at::arange(per_cell.size(0), kept.options().dtype(at::kLong)) % kTimeBins;
  std::vector<double> means;
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    const at::Tensor in_bin = kept & (bin == k);
    means.push_back(in_bin.any().item<bool>() ? per_cell.masked_select(in_bin).mean().item<double>()
                                              : NAN);
  }
  return means;
}

/// The bins with V_b > 0 and E_b known.
std::vector<BinSpread> bin_spreads(const std::vector<const OperatorBins*>& experiments) {
  std::vector<BinSpread> spreads;
  for (const OperatorBins* e : experiments)
    for (std::size_t k = 0; k < e->squared_error.size(); ++k)
      if (e->variance[k] > 0 && std::isfinite(e->squared_error[k]))
        spreads.push_back({e->squared_error[k], e->fixed_variance[k], e->cross_variance[k],
                           e->inducing_variance[k]});
  return spreads;
}

/// sum_p (C_p(kappa) - p)^2 over kCoverageLevels.
double coverage_misfit(const std::vector<BinSpread>& bins, double kappa) {
  double sum = 0;
  for (const CoverageLevel& level : kCoverageLevels) {
    const double held = gaussian_bins_coverage(bins, kappa, level);
    sum += (held - level.level) * (held - level.level);
  }
  return sum;
}

/// The kappa of operator_calibration.h: the minimiser over ln kappa in
/// [-ln kLargestFactor, ln kLargestFactor] of coverage_misfit; 1 when no bin has an error
/// left (E_b <= 0 everywhere: nothing to scale the spread to).
double coverage_factor(const std::vector<BinSpread>& bins) {
  if (std::none_of(bins.begin(), bins.end(), [](const BinSpread& b) { return b.error > 0; }))
    return 1.0;
  const double bound = std::log(kLargestFactor);
  return std::exp(util::minimise_on_grid(
      [&](double x) { return coverage_misfit(bins, std::exp(x)); }, -bound, bound, 0.05));
}

}  // namespace

double BinSpread::variance(double kappa) const {
  if (kappa < 1.0) return kappa * (fixed + 2.0 * cross + inducing);
  return fixed + 2.0 * std::sqrt(kappa) * cross + kappa * inducing;
}

double gaussian_bins_coverage(const std::vector<BinSpread>& bins, double kappa,
                              const CoverageLevel& level) {
  if (bins.empty() || !(kappa > 0))
    throw std::invalid_argument(std::string(kWhere) + ": the coverage needs bins and kappa > 0");
  double held = 0;  // P(|Z| sqrt(E) <= z sqrt(V)) = erf(z sqrt(V / E) / sqrt(2))
  for (const BinSpread& bin : bins)
    held += bin.error > 0
                ? std::erf(level.normal_quantile *
                           std::sqrt(std::max(bin.variance(kappa), 0.0) / bin.error / 2.0))
                : 1.0;
  return held / static_cast<double>(bins.size());
}

OperatorBins operator_bins(const gp::PosteriorResiduals& experiment) {
  require_rows(experiment);
  const at::NoGradGuard no_grad;
  const std::int64_t cells = kSpaceCells * kTimeBins;
  const at::Tensor index = cell_index(experiment);
  const at::Tensor count = at::zeros({cells}, experiment.residual.options())
                               .index_add(0, index, at::ones_like(experiment.residual));
  const auto cell_mean = [&](const at::Tensor& rows) {  // [S, P] -> [S, cells]
    return at::zeros({rows.size(0), cells}, rows.options()).index_add(1, index, rows) /
           count.clamp_min(1);
  };
  const auto squared_cell_mean = [&](const at::Tensor& row) {  // [P] -> [cells]
    return cell_mean(row.unsqueeze(0)).square()[0];
  };
  const at::Tensor kept = count >= static_cast<double>(kMinimumCellRows);
  OperatorBins bins;
  bins.left_out_error = bin_means(squared_cell_mean(experiment.residual), kept);
  bins.in_sample_error = experiment.in_sample.defined()
                             ? bin_means(squared_cell_mean(experiment.in_sample), kept)
                             : std::vector<double>(kTimeBins, 0.0);
  const at::Tensor spread = cell_mean(experiment.deviations);  // [S, cells]
  const at::Tensor made =
      experiment.inducing_deviations.defined() ? cell_mean(experiment.inducing_deviations) : spread;
  const at::Tensor rest = spread - made;
  bins.variance = bin_means(spread.square().mean(0), kept);
  bins.fixed_variance = bin_means(rest.square().mean(0), kept);
  bins.cross_variance = bin_means((rest * made).mean(0), kept);
  bins.inducing_variance = bin_means(made.square().mean(0), kept);
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    bins.cells.push_back(
        (kept & (at::arange(cells, index.options()) % kTimeBins == k)).sum().item<std::int64_t>());
    bins.squared_error.push_back(bins.left_out_error[k] - bins.in_sample_error[k]);
  }
  bins.factor = coverage_factor(bin_spreads({&bins}));
  return bins;
}

OperatorCalibration calibrate_operator(const std::vector<gp::PosteriorResiduals>& experiments) {
  if (experiments.size() < 2)
    throw std::invalid_argument(std::string(kWhere) +
                                ": needs the left-out residuals of 2 training experiments (got " +
                                std::to_string(experiments.size()) + ")");
  OperatorCalibration calibration;
  calibration.samples = experiments.front().deviations.size(0);
  std::vector<const OperatorBins*> all;
  for (const gp::PosteriorResiduals& experiment : experiments)
    calibration.experiments.push_back(operator_bins(experiment));
  for (const OperatorBins& bins : calibration.experiments) all.push_back(&bins);
  const std::vector<BinSpread> spreads = bin_spreads(all);
  calibration.bins = static_cast<std::int64_t>(spreads.size());
  if (spreads.empty())
    throw std::invalid_argument(std::string(kWhere) +
                                ": no time bin has both a known error and a positive spread");
  calibration.factor = coverage_factor(spreads);
  return calibration;
}

}  // namespace bhpm::solve
