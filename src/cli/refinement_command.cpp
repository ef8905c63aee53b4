#include "cli/refinement_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "cli/number_checks.h"
#include "cli/process_setup.h"
#include "io/atomic_file.h"
#include "io/hdf5_tensor.h"
#include "solve/refinement_study.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

void write_study(const std::string& path, const solve::RefinementStudy& study,
                 const RefinementCommandOptions& command) {
  const solve::RefinementStudyOptions& options = command.study;
  io::AtomicFile output(path);
  {
    const io::Hdf5Location file = io::Hdf5Location::create_file(output.temporary_path());
    file.set_attribute("format", std::string("bhpm-refinement-study"));
    file.set_attribute("format_version", static_cast<std::int64_t>(1));
    file.set_attribute("operator_prior",
                       std::string("GP(0.1 u_xx, 0.1^2 exp(-|v - v'|^2)) | f(0,0,0) = 0"));
    file.set_attribute("initial_condition", std::string("u0(x) = sin(x) on [-pi, pi], periodic"));
    file.set_attribute("new_points", options.refinement.new_points);
    file.set_attribute("seed", static_cast<std::int64_t>(options.refinement.seed));
    file.set_attribute("dt", options.dt);
    file.set_attribute("solver_tolerance", options.solver_tolerance);
    if (!command.config.empty()) file.set_attribute("config", command.config);
    io::write_tensor(file, "tolerances", at::tensor(study.tolerances, at::kDouble),
                     {"stage", "(u per time)^2", "delta_c of each stage"});
    io::write_tensor(file, "x", study.x, {"x", "length", "output grid"});
    io::write_tensor(file, "t", study.t, {"t", "time", "output times"});
    io::write_tensor(file, "u", study.solutions,
                     {"stage,sample,t,x", "u", "solution when the stage stopped"});
    io::write_tensor(file, "relative_rmse", study.relative_rmse,
                     {"stage,sample", "1", "|u_r - u_(r-1)| / |u_r|; NaN at stage 0"});
    io::write_tensor(
        file, "conditioning_points", study.conditioning_points,
        {"stage,sample", "1", "n_c when the stage stopped (V_c grows: the first n_c rows)"});
    io::write_tensor(file, "steps", study.steps,
                     {"stage", "1", "time steps of the stage's solves, all its rounds"});
    io::write_tensor(file, "rejected_steps", study.rejected_steps,
                     {"stage", "1", "of those, rejected by the adaptive step control"});
    io::write_tensor(file, "expected_variance", study.expected_variance,
                     {"stage,sample", "(u per time)^2", "last L_c of the stage"});
    const io::Hdf5Location inputs = file.create_group("conditioning_inputs");
    for (std::size_t s = 0; s < study.conditioning_inputs.size(); ++s)
      io::write_tensor(inputs, "sample_" + std::to_string(s), study.conditioning_inputs[s],
                       {"point,variable", "u, u_x, u_xx", "final V_c of the sample"});
  }
  output.commit();
}

}  // namespace

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
  write_study(options.output_path, study, options);
  std::printf("%s", solve::refinement_table(study).c_str());
  std::printf("wrote %s (%.1f s)\n", options.output_path.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
