#pragma once
/// The spread of a system's operator samples calibrated on its training experiments alone
/// (docs/systems.md, "Calibrating a system's bands"): for each field i, the one-field
/// operator route (solve/operator_calibration.h) on the field's exact root. For each
/// training experiment e, root i is conditioned on the other experiments' rows (its
/// hyperparameters as trained), and at e's own rows (v_p, u_i,t,p), taken at (x_p, t_p),
///   r_p = u_i,t,p - m_{-e}(v_p),  g_sp = f_s(v_p) - m_{-e}(v_p),  r^in_p = u_i,t,p - m(v_p),
/// f_s its pathwise samples (gp/pathwise_samples.h) and m the root with every row in. Their
/// cell means over e's window give the factor kappa_i that the bands of all experiments'
/// errors, taken together, hold at 50, 90 and 95 % (solve::calibrate_operator). An exact
/// GP has no q(u): kappa_i scales every deviation f_s - m_i, above 1 and below
/// (gp::PathwiseOptions::deviation_scale = sqrt(kappa_i)). Written to
/// RUN_DIR/system-calibration.json (config/run_layout.h), which `bhpm predict` reads.

#include <cstdint>
#include <string>
#include <vector>

#include "gp/pathwise_samples.h"
#include "gp/posterior_residuals.h"
#include "pipeline/trained_system.h"
#include "solve/operator_calibration.h"

namespace bhpm::pipeline {

/// The samples per experiment and their features: [predict] samples and features.
struct SystemCalibrationOptions {
  std::int64_t samples = 16;
  gp::PathwiseOptions sampling;
};

struct SystemCalibration {
  std::vector<std::string> fields;               ///< [q]
  std::vector<solve::OperatorCalibration> fits;  ///< [q]: kappa_i and its bins
  std::vector<double> factors() const;           ///< [q] kappa_i
};

/// Root `field`'s residuals at each training experiment's rows with that experiment left
/// out, one per experiment in leaf order. Throws std::invalid_argument for fewer than two
/// experiments, or a model whose rows carry no positions (trained before they were stored).
std::vector<gp::PosteriorResiduals> system_left_out_residuals(
    const TrainedSystem& trained, std::int64_t field, const SystemCalibrationOptions& options);

/// kappa_i for every field; throws as system_left_out_residuals and
/// solve::calibrate_operator.
SystemCalibration calibrate_system(const TrainedSystem& trained,
                                   const SystemCalibrationOptions& options);

/// The file's text (format "bhpm-system-calibration"): per field kappa, the bins fitted and
/// each experiment's own kappa; the resolved configuration.
std::string system_calibration_json(const TrainedSystem& trained,
                                    const SystemCalibration& calibration);

/// kappa per field, in `fields`' order, from a file system_calibration_json wrote; throws
/// std::runtime_error naming the file for another format or a field it lacks.
std::vector<double> read_system_spread_factors(const std::string& path,
                                               const std::vector<std::string>& fields);

/// What a prediction on a system's run applies: kappa per field from
/// RUN_DIR/system-calibration.json where it is newer than the model (factors empty
/// otherwise), and a line saying which ("uncalibrated: ..." with the reason).
struct SpreadCalibration {
  std::vector<double> factors;
  std::string description;
};
SpreadCalibration run_spread_calibration(const std::string& run_dir,
                                         const std::vector<std::string>& fields);

}  // namespace bhpm::pipeline
