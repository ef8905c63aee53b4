#pragma once
/// `bhpm evaluate RUN_DIR --data TEST.h5 [-o METRICS.json] [--max-points P]
///                [--set-name test|train] [--experiments N] [--function-only]
///                [--truth-free] [--set section.key=value ...] [-q]`
///
/// Scores the trained root (RUN_DIR/joint.ckpt) on the held-out experiments of a dataset
/// (paper section 3): inputs from exact spectral derivatives of the stored test grids,
/// target u_t from the true operator of the file; prints RMSE, relative RMSE, median and
/// mean NLPD and the coverage of the central 50, 90 and 95% intervals, and writes them as
/// JSON (default RUN_DIR/metrics.json, atomically). `--set-name train --experiments N`
/// scores the training experiments' whole grids instead: points inside the data's
/// coverage of v-space, mostly never measured (n_st of T n), against which the held-out
/// figures show how far the learned physics extrapolates.
///
/// Without a known equation (a dataset from `bhpm import`), or with `--truth-free`, the
/// set's experiments get leaves of their own (phase 1 only, the run's [leaves] and
/// [train_leaves]; model/held_out_leaves.h) fitted to 4 of every 5 of their measurements:
/// the root is scored on those leaves' (v, u_t) (METRICS.json without a truth,
/// METRICS-truth-free.json beside it with one, the two printed side by side) and the
/// leaves on the measurements kept back (METRICS-leaves.json).

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct EvaluateOptions {
  std::string run_dir;
  std::string data_path;
  std::string output_path;             ///< "" = RUN_DIR/metrics.json
  std::int64_t max_points = 0;         ///< 0 = every grid point of every test experiment
  std::string set_name = "test";       ///< the dataset's set to score: "test" or "train"
  std::int64_t experiments = 0;        ///< score the first N experiments of the set; 0 = all
  bool function_only = false;          ///< score q(f) alone, without sigma_f^2
  bool truth_free = false;             ///< also score against held-out leaves when a truth exists
  std::vector<std::string> overrides;  ///< "section.key=value" on the run's configuration
  bool quiet = false;                  ///< no progress of the held-out leaves' fit
};

void setup_evaluate(CLI::App& app);
int run_evaluate(const EvaluateOptions& options);

}  // namespace bhpm::cli
