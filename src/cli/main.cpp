/// bhpm: Bayesian hidden physics models from the command line.
/// The only place that prints errors and chooses exit codes.

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>

#include "cli/evaluate_command.h"
#include "cli/fit_leaves_command.h"
#include "cli/predict_command.h"
#include "cli/process_setup.h"
#include "cli/refinement_command.h"
#include "cli/report_command.h"
#include "cli/run_command.h"
#include "cli/simulate_command.h"
#include "cli/sweep_command.h"
#include "cli/train_command.h"

int main(int argc, char** argv) {
  bhpm::cli::configure_process();
  CLI::App app("BHPM: discover PDE operators from data with calibrated uncertainty", "bhpm");
  app.require_subcommand(1);
  app.set_version_flag("--version", "bhpm " BHPM_VERSION);
  bhpm::cli::setup_simulate(app);
  bhpm::cli::setup_fit_leaves(app);
  bhpm::cli::setup_train(app);
  bhpm::cli::setup_evaluate(app);
  bhpm::cli::setup_predict(app);
  bhpm::cli::setup_refinement_study(app);
  bhpm::cli::setup_run(app);
  bhpm::cli::setup_sweep(app);
  bhpm::cli::setup_report(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& done) {
    return done.get_exit_code();
  } catch (const CLI::ParseError& error) {
    return app.exit(error);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", error.what());
    return 1;
  }
  return 0;
}
