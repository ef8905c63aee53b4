/// bhpm: Bayesian hidden physics models from the command line.
/// The only place that prints errors and chooses exit codes, by one rule (README,
/// "Exit codes"):
///   0  success (and --help, --version)
///   1  bad input (configuration, data, run folder) or a failure while working
///   2  usage: a command line CLI11 cannot parse (unknown option or subcommand, missing
///      or malformed argument, an option value outside its range, a file argument that
///      does not exist)

#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>

#include "cli/calibrate_command.h"
#include "cli/distill_command.h"
#include "cli/evaluate_command.h"
#include "cli/fit_leaves_command.h"
#include "cli/import_command.h"
#include "cli/mpi_job.h"
#include "cli/predict_command.h"
#include "cli/process_setup.h"
#include "cli/refinement_command.h"
#include "cli/report_command.h"
#include "cli/run_command.h"
#include "cli/simulate_command.h"
#include "cli/sweep_command.h"
#include "cli/train_command.h"
#include "util/error_message.h"

namespace {

constexpr int kSuccess = 0;
constexpr int kFailure = 1;
constexpr int kUsage = 2;

/// CLI11's parse errors under the rule above: help and version keep CLI11's output and
/// exit 0; every other parse error is printed as "error: ..." and exits kUsage.
int usage_exit(const CLI::App& app, const CLI::ParseError& error) {
  if (error.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(error);
  std::fprintf(stderr, "error: %s\nRun with --help for more information.\n", error.what());
  return kUsage;
}

/// The subcommand the command line names: the first argument that is one's name ("" if none).
std::string chosen_command(const CLI::App& app, int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (!app.get_subcommands([&](const CLI::App* c) { return c->check_name(argument); }).empty())
      return argument;
  }
  return "";
}

/// Under an MPI launcher only `bhpm sweep` and `bhpm predict` share their work among the
/// ranks (docs/parallel.md); any other command would run P times over the same outputs.
bool refused_as_one_of_several_ranks(const std::string& command) {
  if (command.empty() || command == "sweep" || command == "predict" ||
      !bhpm::cli::started_as_one_of_several_ranks())
    return false;
  std::fprintf(stderr,
               "error: bhpm %s: started by an MPI launcher as one of several processes, but only "
               "`bhpm sweep` and `bhpm predict` share their work among MPI ranks "
               "(docs/parallel.md); each process would do all of it: run `bhpm %s` as one "
               "process\n",
               command.c_str(), command.c_str());
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  bhpm::cli::configure_process();
  CLI::App app("BHPM: discover PDE operators from data with calibrated uncertainty", "bhpm");
  app.require_subcommand(1);
  app.set_version_flag("--version", "bhpm " BHPM_VERSION);
  // Before the subcommands exist, so that they inherit it: an option a subcommand does
  // not know falls through to here, so `bhpm predict --threads 2` works like
  // `bhpm --threads 2 predict`.
  app.fallthrough();
  app.add_option_function<int>(
         "--threads", [](int threads) { bhpm::cli::limit_threads(threads); },
         "Threads for the computation (default: OMP_NUM_THREADS, else the CPUs this process "
         "may run on)")
      ->check(CLI::Range(1, bhpm::cli::kMaxThreads));
  bhpm::cli::setup_simulate(app);
  bhpm::cli::setup_import(app);
  bhpm::cli::setup_fit_leaves(app);
  bhpm::cli::setup_train(app);
  bhpm::cli::setup_evaluate(app);
  bhpm::cli::setup_calibrate(app);
  bhpm::cli::setup_distill(app);
  bhpm::cli::setup_predict(app);
  bhpm::cli::setup_refinement_study(app);
  bhpm::cli::setup_run(app);
  bhpm::cli::setup_sweep(app);
  bhpm::cli::setup_report(app);
  if (refused_as_one_of_several_ranks(chosen_command(app, argc, argv))) return kFailure;
  try {
    app.parse(argc, argv);
  } catch (const CLI::RuntimeError& done) {  // a subcommand's own result: 0 or kFailure
    return done.get_exit_code() == 0 ? kSuccess : kFailure;
  } catch (const CLI::ParseError& error) {
    return usage_exit(app, error);
  } catch (const std::exception& error) {
    std::fprintf(stderr, "error: %s\n", bhpm::util::error_message(error).c_str());
    return kFailure;
  }
  return kSuccess;
}
