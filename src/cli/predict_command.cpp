#include "cli/predict_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

#include "cli/mpi_job.h"
#include "cli/prediction_shares.h"
#include "cli/process_setup.h"
#include "cli/run_folder.h"
#include "cli/setting_flags.h"
#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pde/dataset_file.h"
#include "pde/initial_condition.h"
#include "pde/sampled_initial_condition.h"
#include "pde/term_library.h"
#include "solve/ensemble_file.h"
#include "solve/ensemble_statistics.h"
#include "solve/polynomial_samples.h"
#include "solve/predictor.h"
#include "util/device.h"
#include "util/error_message.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// The IBVP to solve and, for a stored experiment, its true solution [T, n].
struct Problem {
  solve::PredictionProblem problem;
  at::Tensor truth;
  std::string description;
};

/// "FILE:SET/E" or "FILE:E" (set "test") -> (file, set, e).
struct ExperimentReference {
  std::string file, set;
  std::int64_t experiment = 0;
};

ExperimentReference parse_reference(const std::string& text) {
  const auto colon = text.rfind(':');
  const std::string rule =
      "--ic-from: expected FILE:EXPERIMENT or FILE:SET/EXPERIMENT (got \"" + text + "\")";
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw std::invalid_argument(rule);
  ExperimentReference reference{text.substr(0, colon), "test", 0};
  std::string index = text.substr(colon + 1);
  if (const auto slash = index.find('/'); slash != std::string::npos) {
    reference.set = index.substr(0, slash);
    index = index.substr(slash + 1);
  }
  try {
    std::size_t used = 0;
    reference.experiment = std::stoll(index, &used);
    if (used != index.size() || reference.experiment < 0) throw std::invalid_argument(index);
  } catch (const std::exception&) {
    throw std::invalid_argument(rule);
  }
  return reference;
}

/// u0 from `--ic EXPR` at the grid points, refused as `--ic-file` samples are when it is
/// not periodic on the domain (`--ic x` would solve a sawtooth).
Problem problem_from_expression(const config::RunConfig& config, const std::string& expression) {
  const config::SimulateConfig& simulate = config.simulate;
  const pde::PeriodicGrid grid(simulate.x_min, simulate.x_max, simulate.modes);
  const at::Tensor u0 = pde::initial_condition_from_expression(grid, expression, "--ic");
  const at::Tensor x = grid.x().contiguous(), u = u0.contiguous();
  pde::require_periodic(grid,
                        std::vector<double>(x.data_ptr<double>(), x.data_ptr<double>() + x.numel()),
                        std::vector<double>(u.data_ptr<double>(), u.data_ptr<double>() + u.numel()),
                        "--ic '" + expression + "'");
  return {{grid, u0, simulate.solve}, {}, "u0(x) = " + expression};
}

Problem problem_from_samples(const config::RunConfig& config, const std::string& path) {
  const config::SimulateConfig& simulate = config.simulate;
  const pde::PeriodicGrid grid(simulate.x_min, simulate.x_max, simulate.modes);
  return {{grid, pde::initial_condition_from_csv(grid, path), simulate.solve},
          {},
          "u0 interpolated from " + path};
}

Problem problem_from_experiment(const config::RunConfig& config, const std::string& text) {
  const ExperimentReference reference = parse_reference(text);
  if (!std::filesystem::exists(reference.file))
    throw std::invalid_argument("--ic-from: " + reference.file + " does not exist");
  const pde::ExperimentSet set = pde::read_experiment_set(reference.file, reference.set);
  const std::int64_t count = set.u.size(0);
  if (reference.experiment >= count)
    throw std::invalid_argument("--ic-from: " + reference.file + ":/" + reference.set + " holds " +
                                std::to_string(count) + " experiments, experiment " +
                                std::to_string(reference.experiment) + " was asked for");
  ExperimentProblem stored = experiment_problem(config, set, reference.experiment);
  return {std::move(stored.problem), stored.truth, text};
}

Problem make_problem(const PredictCommandOptions& options, const config::RunConfig& config) {
  if (!options.initial_from.empty()) return problem_from_experiment(config, options.initial_from);
  Problem problem = options.initial_file.empty()
                        ? problem_from_expression(config, options.initial_condition)
                        : problem_from_samples(config, options.initial_file);
  if (config.predict.dt > 0.0) problem.problem.solve.stepper.dt = config.predict.dt;
  return problem;
}

/// Puts the root and the problem's grid on compute.device (the solver follows the grid);
/// throws std::runtime_error when that device cannot be used.
void place_on_device(const config::RunConfig& config, gp::SparseVariationalGp root,
                     solve::PredictionProblem& problem) {
  const at::Device device = config.compute.device;
  util::require_available(device, "compute.device");
  if (config.predict.options.solver != "spectral" && !device.is_cpu())
    throw std::runtime_error("compute.device = \"" + device.str() + "\": the " +
                             config.predict.options.solver +
                             " solver runs on the CPU only (predict.solver = \"spectral\" runs "
                             "on a GPU)");
  root->to(device);
  problem.grid = problem.grid.on(device);
}

/// The summary; under mpirun a failed sample is named with the rank that solved it.
void print_summary(const solve::Prediction& prediction, const solve::EnsembleStatistics& statistics,
                   const std::optional<solve::TruthComparison>& comparison, const MpiJob& job) {
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  std::printf("samples: %lld, diverged: %lld, rejected as ill-posed: %lld, repaired: %lld\n",
              static_cast<long long>(ensemble.u.size(0)),
              static_cast<long long>(ensemble.diverged_count()),
              static_cast<long long>(ensemble.rejected_count()),
              static_cast<long long>(ensemble.repaired_count()));
  if (ensemble.repaired_count() > 0)
    std::printf(
        "  repaired: ill-posed along u0, solved with added diffusion a u_xx, a up to %.3g\n",
        ensemble.added_diffusion.max().item<double>());
  const auto members = static_cast<std::int64_t>(ensemble.failures.size());
  for (std::int64_t s = 0; s < members; ++s) {
    if (ensemble.failures[s].empty()) continue;
    const std::string rank =
        job.several() ? " on rank " + std::to_string(rank_of_member(s, members, job.size())) : "";
    std::printf(
        "  sample %lld%s %s: %s\n", static_cast<long long>(s), rank.c_str(),
        ensemble.rejected.defined() && ensemble.rejected[s].item<bool>() ? "rejected" : "diverged",
        ensemble.failures[s].c_str());
  }
  if (!prediction.refinement.empty()) {
    std::int64_t fewest = INT64_MAX, most = 0, unconverged = 0, out_of_budget = 0;
    for (std::size_t s = 0; s < prediction.refinement.size(); ++s) {
      const solve::MemberRefinement& member = prediction.refinement[s];
      fewest = std::min(fewest, member.conditioning_points);
      most = std::max(most, member.conditioning_points);
      unconverged += (member.converged || !ensemble.failures[s].empty()) ? 0 : 1;
      out_of_budget += member.out_of_budget ? 1 : 0;
    }
    std::printf("conditioning points per sample: %lld to %lld; not converged: %lld",
                static_cast<long long>(fewest), static_cast<long long>(most),
                static_cast<long long>(unconverged));
    if (out_of_budget > 0)
      std::printf(
          " (%lld stopped by predict.time_budget: their solutions rest on fewer "
          "conditioning points than the tolerance asks, so L_c above it)",
          static_cast<long long>(out_of_budget));
    std::printf("\n");
  }
  if (ensemble.steps > 0)
    std::printf("time steps: %lld taken, %lld rejected (all rounds, batch of samples)\n",
                static_cast<long long>(ensemble.steps),
                static_cast<long long>(ensemble.rejected_steps));
  std::printf("ensemble spread: mean std %.4g, max std %.4g\n",
              statistics.standard_deviation.mean().item<double>(),
              statistics.standard_deviation.max().item<double>());
  if (comparison)
    std::printf(
        "against the true solution: relative L2 error of the mean %.4g, RMSE %.4g, "
        "inside the 95%% band %.1f%%\n",
        comparison->relative_l2, comparison->rmse, 100.0 * comparison->band_coverage);
}

/// The warning a user must see when the prediction leaves the data (above 1 % of its path).
/// The first S coefficient samples of RUN_DIR/distill.json as polynomial operator samples;
/// refuses a file made from another training or holding fewer samples.
std::shared_ptr<const gp::FunctionSamples> distilled_samples(const std::string& run_dir,
                                                             const config::RunConfig& config,
                                                             std::int64_t count) {
  const std::string path = config::RunLayout{run_dir}.distillation();
  const eval::DistillationFile file = eval::read_distillation_file(path);
  const std::vector<std::string> differences = config::stored_differences(
      path, file.config, config.resolved_toml, config::training_sections());
  if (!differences.empty())
    throw std::invalid_argument("--operator distilled: " + path +
                                " was made from another training (" + differences.front() +
                                "); run `bhpm distill` again");
  if (static_cast<std::int64_t>(file.samples.size()) < count)
    throw std::invalid_argument(
        "--operator distilled: " + path + " holds " + std::to_string(file.samples.size()) +
        " coefficient samples, predict.samples asks for " + std::to_string(count));
  pde::TermLibrary library = pde::make_term_library(file.variables, file.degree);
  if (library.names != file.names)
    throw std::runtime_error(path + ": its terms are not the library of degree " +
                             std::to_string(file.degree) + " of its variables");
  std::vector<double> values;
  for (std::int64_t s = 0; s < count; ++s)
    values.insert(values.end(), file.samples[s].begin(), file.samples[s].end());
  at::Tensor xi = at::tensor(values, at::kDouble).reshape({count, library.size()});
  std::printf("operator: the distilled equation's first %lld coefficient samples (%s): %s\n",
              static_cast<long long>(count), path.c_str(), file.equation.c_str());
  return std::make_shared<solve::PolynomialSamples>(std::move(library), std::move(xi));
}

void print_coverage_warning(double outside) {
  if (outside <= solve::kCoveredPathTolerance) return;
  std::fprintf(
      stderr,
      "warning: %.1f%% of the prediction's path (x, t) lies outside the data's coverage "
      "(posterior variance of f above a tenth of its prior variance): there the band rests "
      "on the prior, not on the data\n",
      100.0 * outside);
}

}  // namespace

void setup_predict(CLI::App& app) {
  auto options = std::make_shared<PredictCommandOptions>();
  auto flags = std::make_shared<std::vector<std::pair<std::string, std::string>>>();
  CLI::App* command = app.add_subcommand(
      "predict", "Solve a new initial-value problem under samples of the learned operator");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  auto* ic = command->add_option(
      "--ic", options->initial_condition,
      "Initial condition u0(x) as an expression in x (constants pi, L, x_min, x_max)");
  auto* from =
      command->add_option("--ic-from", options->initial_from,
                          "u0 from a stored experiment: FILE:EXPERIMENT or FILE:SET/EXPERIMENT");
  auto* file = command
                   ->add_option("--ic-file", options->initial_file,
                                "u0 sampled at points: a CSV with columns x and u over one "
                                "period of the domain, interpolated to the grid")
                   ->check(CLI::ExistingFile);
  ic->excludes(from)->excludes(file);
  from->excludes(file);
  command->add_option("-o,--output", options->output_path,
                      "Ensemble file (HDF5; default RUN_DIR/prediction.h5)");
  auto add_flag = [&](const std::string& flag, const std::string& key, const std::string& help) {
    add_setting_flag(*command, options->flag_overrides, flag, "predict." + key, help);
  };
  add_flag("--samples", "samples", "Number of operator samples S (>= 1)");
  add_setting_flag(*command, options->flag_overrides, "--device", "compute.device",
                   "Where the samples are drawn and solved: cpu, cuda or cuda:N");
  add_flag("--operator", "operator",
           "gp (samples of the root's posterior) or distilled (RUN_DIR/distill.json)");
  add_flag("--sampler", "sampler", "conditioned (Algorithm 1) or pathwise");
  add_flag("--solver", "solver", "spectral or pinn");
  add_flag("--tolerance", "relative_tolerance",
           "Algorithm 1's L_c tolerance relative to the kernel variance (> 0)");
  add_flag("--time-budget", "time_budget",
           "Wall seconds for Algorithm 1's rounds (0: no limit); then samples stop unconverged");
  command->add_option("--set", options->overrides,
                      "Override a setting, e.g. --set predict.features=2048");
  command->add_flag("-q,--quiet", options->quiet, "No progress on stderr, only the summary");
  command->callback([options, ic, from, file] {
    if (ic->count() == 0 && from->count() == 0 && file->count() == 0)
      throw std::invalid_argument(
          "predict: give the initial condition with --ic EXPR, --ic-file U0.csv or --ic-from "
          "FILE:EXPERIMENT");
    throw CLI::RuntimeError(run_predict(*options));
  });
}

namespace {

/// Under `mpirun -n P`: this rank's share of the members (prediction_shares.h), said once
/// by rank 0; alone: every member. The distilled operator is solved by one process.
void share_members(const MpiJob& job, const config::RunConfig& config,
                   solve::PredictorOptions& predictor) {
  if (!job.several()) return;
  if (config.predict.operator_source == "distilled")
    throw std::invalid_argument(
        "predict: --operator distilled is solved by one process; start it without mpirun");
  const MemberShare share = member_share(predictor.samples, job.rank(), job.size());
  predictor.first_member = share.first;
  predictor.member_count = share.count;
  if (job.rank() == 0)
    std::printf("predict: %lld samples over %d MPI ranks\n",
                static_cast<long long>(predictor.samples), job.size());
}

int predict(const PredictCommandOptions& options, const MpiJob& job) {
  const util::Stopwatch stopwatch;
  const std::string output = options.output_path.empty()
                                 ? config::RunLayout{options.run_dir}.prediction()
                                 : options.output_path;
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::shared, "bhpm predict");
  io::require_output_folder(output);
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), options.flag_overrides.begin(), options.flag_overrides.end());
  const TrainedRun run = load_trained_run(options.run_dir, overrides, options.config_path);
  const config::RunConfig& config = run.config;
  const gp::SparseVariationalGp& root = run.root;
  for (at::Tensor& parameter : root->parameters()) parameter.requires_grad_(false);
  Problem problem = make_problem(options, config);
  place_on_device(config, root, problem.problem);
  solve::PredictorOptions predictor = predictor_options(run, options.run_dir, job.rank() == 0);
  share_members(job, config, predictor);
  const double prior_variance = root->kernel()->prior_variance().item<double>();
  use_threads(0);

  const bool quiet = options.quiet || job.rank() != 0;  // rank 0 speaks for the job
  const auto progress = [quiet](const std::string& line) {
    if (!quiet) std::fprintf(stderr, "%s\n", line.c_str());
  };
  const bool distilled = config.predict.operator_source == "distilled";
  const solve::Prediction prediction = gather_prediction(
      job, distilled ? solve::predict_with_samples(
                           distilled_samples(options.run_dir, config, predictor.samples),
                           problem.problem, predictor, progress)
                     : solve::predict_ensemble(*root, problem.problem, predictor, progress));
  if (job.rank() != 0) return 0;  // rank 0 writes the whole ensemble
  const solve::EnsembleSolution& ensemble = prediction.ensemble;
  if (ensemble.left_out().all().item<bool>())
    throw std::runtime_error(
        "predict: every one of the " + std::to_string(ensemble.u.size(0)) +
        " samples diverged or was rejected (sample 0: " + ensemble.failures[0] + ")");
  const solve::EnsembleStatistics statistics = solve::ensemble_statistics(ensemble);
  std::optional<solve::TruthComparison> comparison;
  if (problem.truth.defined()) comparison = solve::compare_with_truth(statistics, problem.truth);

  solve::EnsembleRecord record;
  record.prediction = &prediction;
  record.statistics = &statistics;
  record.u0 = problem.problem.u0;
  record.operator_std =
      solve::operator_standard_deviation(*root, problem.problem.grid, statistics.mean);
  const double outside = solve::fraction_outside_coverage(record.operator_std, prior_variance);
  record.truth = problem.truth;
  record.comparison = comparison;
  record.attributes = {{"run_dir", options.run_dir},
                       {"initial_condition", problem.description},
                       {"operator", config.predict.operator_source},
                       {"sampler", distilled ? "none" : predictor.sampler},
                       {"solver", predictor.solver},
                       {"band", band_calibration(run, options.run_dir)},
                       {"config", config.resolved_toml},
                       {"created_by", "bhpm " BHPM_VERSION}};
  record.outside_coverage = outside;
  solve::write_ensemble_file(output, record);
  print_summary(prediction, statistics, comparison, job);
  print_coverage_warning(outside);
  const double seconds = stopwatch.seconds();
  std::printf("wrote %s (%.1f s)\n", output.c_str(), seconds);
  return 0;
}

}  // namespace

int run_predict(const PredictCommandOptions& options) {
  const MpiJob job("predict");
  try {
    return predict(options, job);
  } catch (const std::exception& error) {
    job.abort_if_several(util::error_message(error));
    throw;
  }
}

}  // namespace bhpm::cli
