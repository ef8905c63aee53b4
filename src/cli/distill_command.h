#pragma once
/// `bhpm distill RUN_DIR [-o distill.json] [--samples S] [--degree d] [--data DATA.h5]
///               [--set distill.key=value] [-q]`
///
/// The learned operator as an equation with intervals (eval/operator_distillation.h;
/// docs/distillation.md, "Distilled equations"): S pathwise samples of the trained root
/// (distill.samples, predict.features features, drawn from the run's seed) are evaluated on
/// the root inputs of the training experiments (RUN_DIR/root.h5, at most
/// distill.max_points of them, evenly spread) and each is fitted by sparse regression on
/// the monomials of (u, u_x, .., d^K u/dx^K) up to degree distill.degree, its threshold
/// chosen by cross-validation over the training experiments. Prints the equation
/// (median [2.5 %, 97.5 %] per kept term), the table of terms with their inclusion
/// probabilities and the fraction of the posterior mean the equation explains, with a
/// warning when it explains less than 1 - distill.max_unexplained. Where the dataset
/// (--data, default RUN_DIR/data.h5 when it exists) stores its true equation, the true
/// operator's least-squares coefficients on the same points are printed beside them.
/// Writes distill.json (eval/distillation_file.h; default RUN_DIR/distill.json).

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct DistillCommandOptions {
  std::string run_dir;
  std::string output_path;  ///< "" = RUN_DIR/distill.json
  std::string data_path;    ///< "" = RUN_DIR/data.h5 when it exists and knows its equation
  std::string config_path;  ///< "" = the configuration stored in RUN_DIR/joint.ckpt
  std::vector<std::string> overrides;       ///< "section.key=value" from --set
  std::vector<std::string> flag_overrides;  ///< "distill.key=value" from --samples, --degree
  bool quiet = false;
};

void setup_distill(CLI::App& app);

/// Where distill writes: -o, or RUN_DIR/distill.json.
std::string distillation_output(const DistillCommandOptions& options);
/// The --set overrides, then those of --samples and --degree.
std::vector<std::string> distill_overrides(const DistillCommandOptions& options);
int run_distill(const DistillCommandOptions& options);

}  // namespace bhpm::cli
