#pragma once
/// `bhpm refinement-study [-o OUT.h5] [--samples S] [--tolerances 1e-2,1e-3,...]
///                        [--grid N] [--seed K] [-q]`
///
/// The paper's Fig. 3 study (solve/refinement_study.h): Algorithm 1 on a synthetic
/// heat-like operator GP, run to successively smaller tolerances delta_c; prints the table
/// of relative RMSE between successive solutions and writes every solution, n_c, L_c and
/// the final conditioning inputs to OUT.h5 (default refinement.h5) atomically.

namespace CLI {
class App;
}

namespace bhpm::cli {

void setup_refinement_study(CLI::App& app);

}  // namespace bhpm::cli
