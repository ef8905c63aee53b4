#include "cli/refinement_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "cli/number_checks.h"
#include "cli/process_setup.h"
#include "io/atomic_file.h"
#include "solve/refinement_file.h"
#include "solve/refinement_study.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

void setup_refinement_study(CLI::App& app) {
  auto options = std::make_shared<RefinementCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "refinement-study",
      "Fig. 3: convergence of solution samples as Algorithm 1's tolerance falls");
  command->add_option("-o,--output", options->output_path,
                      "Study file (HDF5; default refinement.h5)");
  command->add_option("--samples", options->study.samples, "Operator samples (lines of Fig. 3b)")
      ->check(positive());
  command->add_option("--tolerances", options->study.tolerances, "Decreasing delta_c values")
      ->delimiter(',');
  command->add_option("--grid", options->study.grid_points, "Output grid points in x and in t")
      ->check(positive());
  command->add_option("--seed", options->study.refinement.seed, "Seed of every draw")
      ->check(non_negative());
  command->add_option("--solver-tolerance", options->study.solver_tolerance,
                      "0: fixed steps of dt; > 0: adaptive steps to this local error");
  command->add_flag("-q,--quiet", options->quiet, "Print only the table");
  command->callback([options] { throw CLI::RuntimeError(run_refinement(*options)); });
}

int run_refinement(const RefinementCommandOptions& options) {
  const util::Stopwatch stopwatch;
  solve::validate(options.study);
  io::require_output_folder(options.output_path);
  use_threads(0);
  const solve::RefinementStudy study =
      solve::run_refinement_study(options.study, [&](const std::string& line) {
        if (!options.quiet) std::printf("%s\n", line.c_str());
      });
  solve::write_refinement_study(options.output_path, study, options.study, options.config);
  std::printf("%s", solve::refinement_table(study).c_str());
  std::printf("wrote %s (%.1f s)\n", options.output_path.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
