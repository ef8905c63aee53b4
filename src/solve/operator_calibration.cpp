#include "solve/operator_calibration.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

#include "solve/discrepancy_calibration.h"

namespace bhpm::solve {

namespace {

constexpr const char* kWhere = "operator calibration";

void require_rows(const gp::PosteriorResiduals& e) {
  const std::int64_t p = e.residual.defined() ? e.residual.numel() : 0;
  if (p < 1 || e.residual.dim() != 1 || !e.deviations.defined() || e.deviations.dim() != 2 ||
      e.deviations.size(1) != p || e.deviations.size(0) < 1 || e.x.numel() != p ||
      e.t.numel() != p || (e.in_sample.defined() && e.in_sample.sizes() != e.residual.sizes()))
    throw std::invalid_argument(
        std::string(kWhere) +
        ": residual [P], deviations [S, P], x, t and in_sample [P] must agree");
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

/// exp(mean ln(E / V)) over the bins with both positive, at least 1; 1 without any.
double log_ratio_factor(const std::vector<const OperatorBins*>& experiments, std::int64_t& bins) {
  double sum = 0;
  bins = 0;
  for (const OperatorBins* e : experiments)
    for (std::size_t k = 0; k < e->squared_error.size(); ++k)
      if (e->squared_error[k] > 0 && e->variance[k] > 0)
        sum += std::log(e->squared_error[k] / e->variance[k]), ++bins;
  return bins > 0 ? std::max(1.0, std::exp(sum / static_cast<double>(bins))) : 1.0;
}

}  // namespace

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
  bins.variance = bin_means(cell_mean(experiment.deviations).square().mean(0), kept);
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    bins.cells.push_back(
        (kept & (at::arange(cells, index.options()) % kTimeBins == k)).sum().item<std::int64_t>());
    bins.squared_error.push_back(bins.left_out_error[k] - bins.in_sample_error[k]);
  }
  std::int64_t fitted = 0;
  bins.factor = log_ratio_factor({&bins}, fitted);
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
  calibration.factor = log_ratio_factor(all, calibration.bins);
  if (calibration.bins == 0)
    throw std::invalid_argument(std::string(kWhere) +
                                ": no time bin has both a positive error and a positive spread");
  return calibration;
}

}  // namespace bhpm::solve
