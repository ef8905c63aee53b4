#include "cli/prediction_problem.h"

#include <ATen/ATen.h>

#include <filesystem>
#include <stdexcept>
#include <utility>

#include "config/run_layout.h"
#include "pde/dataset_file.h"
#include "pde/initial_condition.h"
#include "pde/sampled_initial_condition.h"
#include "pipeline/run_folder.h"
#include "util/device.h"
#include "util/number_format.h"

namespace bhpm::cli {

namespace {

/// "SET/E" or "E" (set `default_set`) -> (set, e); `rule` is the message for anything else.
std::pair<std::string, std::int64_t> parse_set_experiment(std::string text,
                                                          const std::string& default_set,
                                                          const std::string& rule) {
  std::string set = default_set;
  if (const auto slash = text.find('/'); slash != std::string::npos) {
    set = text.substr(0, slash);
    text = text.substr(slash + 1);
  }
  try {
    std::size_t used = 0;
    const std::int64_t experiment = std::stoll(text, &used);
    if (used != text.size() || experiment < 0) throw std::invalid_argument(text);
    return {set, experiment};
  } catch (const std::exception&) {
    throw std::invalid_argument(rule);
  }
}

/// "E", "train/E" or "test/E" -> (set, e).
std::pair<std::string, std::int64_t> parse_window_reference(const std::string& text) {
  const std::string rule = "--window-from: expected E, train/E or test/E (got \"" + text + "\")";
  auto reference = parse_set_experiment(text, "train", rule);
  if (reference.first != "train" && reference.first != "test") throw std::invalid_argument(rule);
  return reference;
}

/// u0 from `--ic EXPR` at the grid points, refused when it is not finite or not periodic on
/// the domain (`--ic x` would solve a sawtooth).
Problem problem_from_expression(const config::RunConfig& config, const std::string& expression) {
  const config::SimulateConfig& simulate = config.simulate;
  const pde::PeriodicGrid grid(simulate.x_min, simulate.x_max, simulate.modes);
  const at::Tensor u0 = pde::initial_condition_from_expression(grid, expression, "--ic");
  return {{grid, u0, simulate.solve, nullptr}, {}, "u0(x) = " + expression, std::nullopt};
}

Problem problem_from_samples(const config::RunConfig& config, const std::string& path) {
  const config::SimulateConfig& simulate = config.simulate;
  const pde::PeriodicGrid grid(simulate.x_min, simulate.x_max, simulate.modes);
  return {{grid, pde::initial_condition_from_csv(grid, path), simulate.solve, nullptr},
          {},
          "u0 interpolated from " + path,
          std::nullopt};
}

Problem problem_from_experiment(const config::RunConfig& config, const std::string& text) {
  const ExperimentReference reference = parse_reference(text);
  const pde::ExperimentSet set = pde::read_experiment_set(reference.file, reference.set);
  const std::int64_t count = set.u.size(0);
  if (reference.experiment >= count)
    throw std::invalid_argument("--ic-from: " + reference.file + ":/" + reference.set + " holds " +
                                std::to_string(count) + " experiments, experiment " +
                                std::to_string(reference.experiment) + " was asked for");
  pipeline::ExperimentProblem stored =
      pipeline::experiment_problem(config, set, reference.experiment);
  return {std::move(stored.problem), stored.truth, text, std::nullopt};
}

/// u0 from --ic, --ic-file or --ic-from on the configuration's bounded domain, and its
/// problem (pipeline::domain_problem: the conditions checked against the root and u0).
Problem problem_on_domain(const PredictCommandOptions& options, const pipeline::TrainedRun& run) {
  const config::SimulateConfig& simulate = run.config.simulate;
  const pde::ChebyshevGrid grid = simulate.bounded_grid();
  Problem problem;
  std::string source;
  if (!options.initial_from.empty()) {
    const ExperimentReference reference = parse_reference(options.initial_from);
    pipeline::ExperimentProblem stored = pipeline::bounded_experiment_problem(
        *run.root, simulate, pde::read_experiment_set(reference.file, reference.set),
        reference.experiment);
    problem.problem = std::move(stored.problem);
    problem.truth = stored.truth;
    source = options.initial_from;
  } else {
    const bool from_file = !options.initial_file.empty();
    const at::Tensor u0 =
        from_file ? pde::initial_condition_from_csv(grid, options.initial_file)
                  : pde::initial_condition_from_expression(grid, options.initial_condition, "--ic");
    problem.problem.window = pipeline::domain_problem(*run.root, simulate, u0);
    source = from_file ? "u0 interpolated from " + options.initial_file
                       : "u0(x) = " + options.initial_condition;
  }
  problem.description = source + " on [" + util::format_number(simulate.x_min) + ", " +
                        util::format_number(simulate.x_max) + "] with " +
                        pde::describe(simulate.conditions);
  return problem;
}

}  // namespace

Problem make_problem(const PredictCommandOptions& options, const pipeline::TrainedRun& run) {
  const config::RunConfig& config = run.config;
  if (config.simulate.bounded()) return problem_on_domain(options, run);
  if (!options.initial_from.empty()) return problem_from_experiment(config, options.initial_from);
  Problem problem = options.initial_file.empty()
                        ? problem_from_expression(config, options.initial_condition)
                        : problem_from_samples(config, options.initial_file);
  config::apply_time_steps(config.predict, problem.problem.solve);
  return problem;
}

Problem window_problem(const PredictCommandOptions& options, const pipeline::TrainedRun& run,
                       const model::TrainingCallback& progress) {
  const auto [set, experiment] = parse_window_reference(options.window_from);
  const std::string data = config::RunLayout{options.run_dir}.data();
  const pipeline::ExperimentWindow window =
      set == "test" ? pipeline::held_out_window(data, run, experiment, progress)
                    : pipeline::training_window(options.run_dir, data, run, experiment);
  Problem problem;
  problem.problem.window = window.problem;
  problem.description = window.description;
  problem.window = window;
  return problem;
}

void place_on_device(const config::RunConfig& config, gp::SparseVariationalGp root,
                     solve::PredictionProblem& problem) {
  const at::Device device = config.compute.device;
  util::require_available(device, "compute.device");
  if (problem.window && !device.is_cpu())
    throw std::runtime_error("compute.device = \"" + device.str() +
                             "\": a window's problem is solved on the CPU only (CVODE)");
  if (config.predict.options.solver != "spectral" && !device.is_cpu())
    throw std::runtime_error("compute.device = \"" + device.str() + "\": the " +
                             config.predict.options.solver +
                             " solver runs on the CPU only (predict.solver = \"spectral\" runs "
                             "on a GPU)");
  root->to(device);
  problem.grid = problem.grid.on(device);
}

ExperimentReference parse_reference(const std::string& text) {
  const auto colon = text.rfind(':');
  const std::string rule =
      "--ic-from: expected FILE:EXPERIMENT or FILE:SET/EXPERIMENT (got \"" + text + "\")";
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw std::invalid_argument(rule);
  const auto [set, experiment] = parse_set_experiment(text.substr(colon + 1), "test", rule);
  return {text.substr(0, colon), set, experiment};
}

std::string window_reference_error(const std::string& text) {
  try {
    parse_window_reference(text);
  } catch (const std::exception& error) {
    const std::string message = error.what();  // CLI11 puts "--window-from: " before it
    return message.rfind("--window-from: ", 0) == 0 ? message.substr(15) : message;
  }
  return "";
}

std::string reference_error(const std::string& text) {
  try {
    const ExperimentReference reference = parse_reference(text);
    if (!std::filesystem::exists(reference.file)) return reference.file + " does not exist";
  } catch (const std::exception& error) {
    const std::string message = error.what();  // CLI11 puts "--ic-from: " before it
    return message.rfind("--ic-from: ", 0) == 0 ? message.substr(11) : message;
  }
  return "";
}

}  // namespace bhpm::cli
