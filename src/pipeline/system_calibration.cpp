#include "pipeline/system_calibration.h"

#include <ATen/ATen.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "config/run_layout.h"
#include "gp/exact_gp.h"
#include "util/number_format.h"

namespace bhpm::pipeline {

std::vector<double> SystemCalibration::factors() const {
  std::vector<double> kappa;
  for (const solve::OperatorCalibration& fit : fits) kappa.push_back(fit.factor);
  return kappa;
}

namespace {

/// Root `field` conditioned on the rows not of leaf `e`, its hyperparameters shared.
gp::ExactGp left_out_root(const TrainedSystem& trained, std::int64_t field, std::int64_t e) {
  const gp::ExactGpImpl& root = *trained.roots[static_cast<std::size_t>(field)];
  const at::Tensor rest = trained.rows.leaf.ne(e).nonzero().squeeze(1);
  return gp::ExactGp(root.mean(), root.kernel(), root.likelihood(),
                     trained.rows.inputs.index_select(0, rest),
                     trained.rows.targets.select(1, field).index_select(0, rest).contiguous());
}

/// Leaf e's residuals for root `field` (its rows `own`); `full` = the root's factor with
/// every row in.
gp::PosteriorResiduals experiment_residuals(const TrainedSystem& trained, std::int64_t field,
                                            std::int64_t e, const at::Tensor& own,
                                            const gp::ExactGpFactor& full,
                                            const SystemCalibrationOptions& options) {
  const at::Tensor v = trained.rows.inputs.index_select(0, own);
  const at::Tensor y = trained.rows.targets.select(1, field).index_select(0, own);
  const gp::ExactGp loo = left_out_root(trained, field, e);
  const gp::ExactGpFactor factor = loo->factorize();
  const at::Tensor mean = loo->marginals(v, factor).mean;
  const gp::PathwiseSamples samples(*loo, factor, options.samples, options.sampling);
  const gp::ExactGpImpl& root = *trained.roots[static_cast<std::size_t>(field)];
  const nn::DomainBox& box = trained.boxes[static_cast<std::size_t>(e)];
  gp::PosteriorResiduals residuals;
  residuals.residual = y - mean;
  residuals.deviations = samples.evaluate(v.unsqueeze(0).expand({options.samples, -1, -1})) - mean;
  residuals.x = trained.rows.x.index_select(0, own);
  residuals.t = trained.rows.t.index_select(0, own);
  residuals.x_min = box.x_min;
  residuals.x_max = box.x_max;
  residuals.t_min = box.t_min;
  residuals.t_max = box.t_max;
  residuals.in_sample = y - root.marginals(v, full).mean;
  return residuals;
}

}  // namespace

std::vector<gp::PosteriorResiduals> system_left_out_residuals(
    const TrainedSystem& trained, std::int64_t field, const SystemCalibrationOptions& options) {
  const std::int64_t experiments = static_cast<std::int64_t>(trained.boxes.size());
  if (experiments < 2)
    throw std::invalid_argument(
        "calibrate: a system's bands are calibrated on experiments left out one at a time, "
        "which needs at least 2 training experiments (the model has " +
        std::to_string(experiments) + ")");
  if (!trained.rows.x.defined() || !trained.rows.t.defined())
    throw std::invalid_argument(
        "calibrate: the model's root rows carry no positions (x, t): it was trained before "
        "they were stored; train it again");
  const at::NoGradGuard no_grad;
  const gp::ExactGpFactor full = trained.roots[static_cast<std::size_t>(field)]->factorize();
  std::vector<gp::PosteriorResiduals> residuals;
  for (std::int64_t e = 0; e < experiments; ++e)
    residuals.push_back(experiment_residuals(
        trained, field, e, trained.rows.leaf.eq(e).nonzero().squeeze(1), full, options));
  return residuals;
}

SystemCalibration calibrate_system(const TrainedSystem& trained,
                                   const SystemCalibrationOptions& options) {
  SystemCalibration calibration;
  calibration.fields = trained.config.system.fields;
  for (std::size_t i = 0; i < trained.roots.size(); ++i)
    calibration.fits.push_back(solve::calibrate_operator(
        system_left_out_residuals(trained, static_cast<std::int64_t>(i), options)));
  return calibration;
}

std::string system_calibration_json(const TrainedSystem& trained,
                                    const SystemCalibration& calibration) {
  nlohmann::ordered_json file = {{"format", "bhpm-system-calibration"},
                                 {"method", "operator"},
                                 {"system", trained.config.system.describe()}};
  for (std::size_t i = 0; i < calibration.fields.size(); ++i) {
    const solve::OperatorCalibration& fit = calibration.fits[i];
    nlohmann::ordered_json experiments = nlohmann::json::array();
    for (const solve::OperatorBins& bins : fit.experiments) experiments.push_back(bins.factor);
    file["fields"][calibration.fields[i]] = {{"inflation", fit.factor},
                                             {"bins", fit.bins},
                                             {"samples", fit.samples},
                                             {"experiment_inflation", experiments}};
  }
  file["config"] = trained.config.resolved_toml;
  return file.dump(2) + "\n";
}

std::vector<double> read_system_spread_factors(const std::string& path,
                                               const std::vector<std::string>& fields) {
  std::ifstream in(path);
  nlohmann::json file;
  try {
    file = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& error) {
    throw std::runtime_error(path + ": not JSON (" + error.what() + ")");
  }
  if (!file.is_object() || file.value("format", "") != "bhpm-system-calibration")
    throw std::runtime_error(path + ": not a system's calibration (format " +
                             "\"bhpm-system-calibration\")");
  std::vector<double> factors;
  for (const std::string& field : fields) {
    const nlohmann::json* entry = file.contains("fields") && file["fields"].contains(field)
                                      ? &file["fields"][field]
                                      : nullptr;
    if (entry == nullptr || !(*entry)["inflation"].is_number() ||
        !((*entry)["inflation"].get<double>() > 0.0))
      throw std::runtime_error(path + ": fields." + field +
                               ".inflation: missing or not a positive number");
    factors.push_back((*entry)["inflation"].get<double>());
  }
  return factors;
}

SpreadCalibration run_spread_calibration(const std::string& run_dir,
                                         const std::vector<std::string>& fields) {
  const config::RunLayout layout{run_dir};
  const std::string path = layout.system_calibration();
  if (!std::filesystem::exists(path))
    return {{},
            "uncalibrated: the roots' plain posterior (no " + path + "; `bhpm calibrate " +
                run_dir + "` makes it)"};
  if (!config::up_to_date(path, {layout.system_model()}))
    return {{},
            "uncalibrated: the roots' plain posterior (" + path +
                " is older than the model; `bhpm calibrate " + run_dir + "` again)"};
  SpreadCalibration calibration{read_system_spread_factors(path, fields), "kappa"};
  for (std::size_t i = 0; i < fields.size(); ++i)
    calibration.description += (i == 0 ? " " : ", ") + fields[i] + " " +
                               util::format_significant(calibration.factors[i], 4);
  calibration.description += " (" + path + ")";
  return calibration;
}

}  // namespace bhpm::pipeline
