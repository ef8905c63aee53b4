#pragma once
/// `bhpm predict RUN_DIR (--ic EXPR | --ic-file U0.csv | --ic-from FILE:[SET/]EXPERIMENT)
///               [--samples S]
///               [--sampler conditioned|pathwise] [--solver spectral|pinn]
///               [--tolerance T] [--set predict.key=value] [-o OUT.h5] [-q]`
///
/// Solves a new initial-boundary value problem under S samples of the learned operator
/// (paper section 2.3, Algorithm 1, Fig. 4) and writes the ensemble, its mean, standard
/// deviation and 2.5/50/97.5 % quantiles, and the root's posterior standard deviation
/// along the mean solution (solve/ensemble_file.h; default RUN_DIR/prediction.h5). `--ic`
/// takes u0 as an expression in x on the training data's domain, grid and horizon
/// (config [domain] and [solver]: `--set domain.t_end=20` for another horizon); `--ic-file`
/// takes u0 sampled at points (columns x and u of a CSV), interpolated to that grid
/// (pde/sampled_initial_condition.h), refused when not periodic on the domain;
/// `--ic-from` takes u0 = u(x, 0) of a stored experiment (set "test" unless named), whose
/// grid and times are used, and whose true solution is then compared with: the relative
/// L2 error of the ensemble mean and the fraction of grid points inside the 95 % band are
/// printed and stored. Settings not given come from the run's [predict] section. On a field
/// system's run (docs/systems.md, "Predicting with a system") `--ic` takes one expression
/// per field, separated by ';', `--ic-file` a CSV with a column per field and `--ic-from` an
/// experiment of a version 3 dataset.

#include <cstdint>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct PredictCommandOptions {
  std::string run_dir;
  std::string initial_condition;  ///< --ic expression in x
  std::string initial_from;       ///< --ic-from FILE:[SET/]EXPERIMENT
  std::string initial_file;       ///< --ic-file CSV of (x, u) samples
  std::string window_from;        ///< --window-from [train/]E or test/E: that experiment's window
  std::string output_path;        ///< "" = RUN_DIR/prediction.h5
  std::string config_path;        ///< "" = the configuration stored in RUN_DIR/joint.ckpt
  std::vector<std::string> overrides;       ///< "section.key=value" from --set
  std::vector<std::string> flag_overrides;  ///< "predict.key=value" from --samples, --solver, ...
  bool quiet = false;
};

/// `--ic-from FILE:SET/E` or `FILE:E` (set "test").
struct ExperimentReference {
  std::string file, set;
  std::int64_t experiment = 0;
};

/// Throws std::invalid_argument naming --ic-from for text of another form.
ExperimentReference parse_reference(const std::string& text);

void setup_predict(CLI::App& app);
int run_predict(const PredictCommandOptions& options);

}  // namespace bhpm::cli
