#pragma once
/// `bhpm refinement-study [-o OUT.h5] [--samples S] [--tolerances 1e-2,1e-3,...]
///                        [--grid N] [--seed K] [-q]`
///
/// The paper's Fig. 3 study (solve/refinement_study.h): Algorithm 1 on a synthetic
/// heat-like operator GP, run to successively smaller tolerances delta_c; prints the table
/// of relative RMSE between successive solutions and writes every solution, n_c, L_c and
/// the final conditioning inputs to OUT.h5 (default refinement.h5) atomically.

#include <string>

#include "solve/refinement_study.h"

namespace CLI {
class App;
}

namespace bhpm::cli {

struct RefinementCommandOptions {
  solve::RefinementStudyOptions study;
  std::string output_path = "refinement.h5";
  std::string config;  ///< resolved configuration stored in the file ("" from the subcommand)
  bool quiet = false;
};

void setup_refinement_study(CLI::App& app);

/// Runs the study, writes OUT.h5 atomically and prints the table; returns the exit code.
int run_refinement(const RefinementCommandOptions& options);

}  // namespace bhpm::cli
