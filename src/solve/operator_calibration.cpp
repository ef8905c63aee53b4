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
      e.deviations.size(1) != p || e.deviations.size(0) < 1 || e.x.numel() != p || e.t.numel() != p)
    throw std::invalid_argument(std::string(kWhere) +
                                ": residual [P], deviations [S, P], x and t [P] must agree");
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
  const at::Tensor residual_sum =
      at::zeros({cells}, experiment.residual.options()).index_add(0, index, experiment.residual);
  const at::Tensor deviation_sum =
      at::zeros({experiment.deviations.size(0), cells}, experiment.deviations.options())
          .index_add(1, index, experiment.deviations);
  const at::Tensor kept = count >= static_cast<double>(kMinimumCellRows);
  const at::Tensor error = (residual_sum / count.clamp_min(1)).square();
  const at::Tensor spread = (deviation_sum / count.clamp_min(1)).square().mean(0);
  OperatorBins bins;
  for (std::int64_t k = 0; k < kTimeBins; ++k) {
    const at::Tensor in_bin = kept & (at::arange(cells, index.options()) % kTimeBins == k);
    const std::int64_t n = in_bin.sum().item<std::int64_t>();
    bins.cells.push_back(n);
    bins.squared_error.push_back(n > 0 ? error.masked_select(in_bin).mean().item<double>() : NAN);
    bins.variance.push_back(n > 0 ? spread.masked_select(in_bin).mean().item<double>() : NAN);
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
