#pragma once
/// `bhpm calibrate RUN_DIR [--data DATA.h5] [--samples S] [--set key=value] [-q]`
///
/// Fits the operator samples' model discrepancy on the run's training experiments. By
/// default (predict.calibration_method = "operator", on any dataset) nothing is solved:
/// each training experiment's leaf rows are scored by the root's posterior fitted without
/// them and its samples, and the spread factor kappa is the one whose bands hold the
/// errors of their cell means at 50, 90 and 95 % on average over time bins
/// (pipeline/calibration_from_measurements.h; at least 2 training experiments; docs/calibration.md,
/// "Calibration from measurements").
/// With "trajectories" (a dataset with solution grids only; solve/discrepancy_calibration.h;
/// docs/calibration.md, "Model discrepancy") each training experiment is predicted from its
/// own initial condition, by the root's posterior refitted without its rows
/// (predict.calibration_leave_one_out), with S samples (predict.calibration_samples)
/// without and with the reference tau_0^2 = sigma_f^2, and tau^2 is chosen so that the
/// ensembles' spread matches their error at the measured points (the set "train" of
/// DATA.h5, default RUN_DIR/data.h5), or the posterior's own spread is scaled by kappa
/// instead; which form is kept is decided by how each one's fit carries over from
/// posteriors without 2 training experiments to the leave-one-out ones
/// (predict.calibration_transfer; 3 or more training experiments; both fits there inside
/// their bounds), otherwise by the smaller misfit.
/// Held-out experiments are never read. Writes
/// RUN_DIR/discrepancy.json, which `bhpm predict` then uses (predict.discrepancy =
/// "calibrated").

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct CalibrateCommandOptions {
  std::string run_dir;
  std::string data_path;               ///< "" = RUN_DIR/data.h5
  std::string config_path;             ///< "" = the configuration stored in RUN_DIR/joint.ckpt
  std::vector<std::string> overrides;  ///< "section.key=value"
  bool quiet = false;
};

void setup_calibrate(CLI::App& app);
int run_calibrate(const CalibrateCommandOptions& options);

}  // namespace bhpm::cli
