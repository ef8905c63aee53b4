#pragma once
/// What the commands after `bhpm train` read from a run folder: the trained root and the
/// configuration that trained it (stored in RUN_DIR/joint.ckpt).

#include <cstdint>
#include <string>
#include <vector>

#include "config/run_config.h"
#include "gp/sparse_variational_gp.h"
#include "model/leaf_model.h"
#include "pde/experiment_set.h"
#include "solve/predictor.h"

namespace bhpm::pipeline {

/// The trained root of a run folder; refuses a folder without a finished joint phase
/// ("RUN_DIR: no trained model (RUN_DIR/joint.ckpt is missing; run `bhpm train` first)").
gp::SparseVariationalGp trained_root(const std::string& run_dir);

/// The trained root and the configuration stored with it ("section.key=value" overrides
/// applied), from one read of RUN_DIR/joint.ckpt; same refusal as trained_root.
/// `config_path` non-empty: that configuration file instead of the stored one (`bhpm run`,
/// which has checked that its training sections agree with the checkpoint's).
struct TrainedRun {
  gp::SparseVariationalGp root;
  config::RunConfig config;
};
TrainedRun load_trained_run(const std::string& run_dir, const std::vector<std::string>& overrides,
                            const std::string& config_path = "");

/// The trained leaves of a run folder's `experiments` training experiments (from
/// RUN_DIR/joint.ckpt, the configuration's [leaves]); same refusal as trained_root, and
/// io::CheckpointError when the stored leaves are of another count or shape.
model::LeafModel trained_leaves(const std::string& run_dir, const config::RunConfig& config,
                                std::int64_t experiments);

/// The predictor's options for a trained run: the [predict] section with Algorithm 1's
/// tolerance = relative_tolerance x s^2 (s^2 the root kernel's prior variance), the
/// model discrepancy's tau^2 and timescale T of predict.discrepancy: "fixed" the configured ones,
/// "none" tau = 0, "calibrated" RUN_DIR/discrepancy.json's (`bhpm calibrate`), or tau = 0
/// with a warning on stderr (when `warn`) when the run has none; and conserve_mean of
/// predict.conservation: "auto" the decision stored in RUN_DIR/discrepancy.json (false without
/// one); with predict.equation_terms = "weak-form" and the root's samples, the shift of
/// pipeline/weak_form_shift.h (none, with a warning when `warn`, where it cannot be fitted).
solve::PredictorOptions predictor_options(const TrainedRun& run, const std::string& run_dir,
                                          bool warn = true);

/// What the width of a prediction's band rests on (the prediction file's attribute "band"):
/// "calibrated (trajectories)" or "calibrated (operator)" (RUN_DIR/discrepancy.json's
/// method), "fixed by the configuration", or "uncalibrated: ..." with the reason (no
/// discrepancy.json; predict.discrepancy = "none"; the distilled equation's samples, which
/// carry no model discrepancy).
std::string band_calibration(const TrainedRun& run, const std::string& run_dir);

/// The IBVP of experiment e of a stored periodic set: u0 = its t = 0 row, its grid and
/// times, the run's solver settings (predict.dt > 0 replaces the time step); `truth` its
/// solution. A bounded set (set.conditions non-empty) is refused with
/// std::invalid_argument: `bhpm predict --ic-from` solves those on the configured domain.
struct ExperimentProblem {
  solve::PredictionProblem problem;
  at::Tensor truth;  ///< [T, n]
};
ExperimentProblem experiment_problem(const config::RunConfig& config, const pde::ExperimentSet& set,
                                     std::int64_t experiment);

}  // namespace bhpm::pipeline
