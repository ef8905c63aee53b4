#pragma once
/// `bhpm evaluate RUN_DIR --data TEST.h5 [-o METRICS.json] [--max-points P]
///                [--set-name test|train] [--experiments N]`
///
/// Scores the trained root (RUN_DIR/joint.ckpt) on the held-out experiments of a dataset
/// (paper section 3): inputs from exact spectral derivatives of the stored test grids,
/// target u_t from the true operator of the file; prints RMSE, relative RMSE, median and
/// mean NLPD and the coverage of the central 50, 90 and 95% intervals, and writes them as
/// JSON (default RUN_DIR/metrics.json, atomically). `--set-name train --experiments N`
/// scores the training experiments' whole grids instead: points inside the data's
/// coverage of v-space, mostly never measured (n_st of T n), against which the held-out
/// figures show how far the learned physics extrapolates.

#include <cstdint>
#include <string>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct EvaluateOptions {
  std::string run_dir;
  std::string data_path;
  std::string output_path;        ///< "" = RUN_DIR/metrics.json
  std::int64_t max_points = 0;    ///< 0 = every grid point of every test experiment
  std::string set_name = "test";  ///< the dataset's set to score: "test" or "train"
  std::int64_t experiments = 0;   ///< score the first N experiments of the set; 0 = all
  bool function_only = false;     ///< score q(f) alone, without sigma_f^2
};

void setup_evaluate(CLI::App& app);
int run_evaluate(const EvaluateOptions& options);

}  // namespace bhpm::cli
