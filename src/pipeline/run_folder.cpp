#include "pipeline/run_folder.h"

#include <cstdio>
#include <filesystem>
#include <optional>
#include <stdexcept>

#include "config/run_layout.h"
#include "io/checkpoint.h"
#include "model/module_checkpoint.h"
#include "model/root_gp.h"
#include "pipeline/weak_form_shift.h"
#include "solve/discrepancy_calibration.h"

namespace bhpm::pipeline {

namespace {

io::Checkpoint joint_checkpoint(const std::string& run_dir) {
  const config::RunLayout layout{run_dir};
  const std::string path = layout.joint_checkpoint();
  if (!std::filesystem::exists(path) && std::filesystem::exists(layout.system_model()))
    throw std::runtime_error(
        run_dir + ": holds a field system's model (" + layout.system_model() +
        "), which this command does not read yet (docs/systems.md lists the commands "
        "that do)");
  if (!std::filesystem::exists(path))
    throw std::runtime_error(run_dir + ": no trained model (" + path +
                             " is missing; run `bhpm train` first)");
  return io::load_checkpoint(path);
}

}  // namespace

gp::SparseVariationalGp trained_root(const std::string& run_dir) {
  return model::sparse_root_from_checkpoint(joint_checkpoint(run_dir), "root.",
                                            config::RunLayout{run_dir}.joint_checkpoint());
}

TrainedRun load_trained_run(const std::string& run_dir, const std::vector<std::string>& overrides,
                            const std::string& config_path) {
  const std::string path = config::RunLayout{run_dir}.joint_checkpoint();
  const io::Checkpoint checkpoint = joint_checkpoint(run_dir);
  return {model::sparse_root_from_checkpoint(checkpoint, "root.", path),
          config_path.empty() ? config::read_run_config_text(checkpoint.string("config", path),
                                                             path + ":config", run_dir, overrides)
                              : config::read_run_config(config_path, overrides)};
}

model::LeafModel trained_leaves(const std::string& run_dir, const config::RunConfig& config,
                                std::int64_t experiments) {
  model::LeafModelOptions options = config.leaves.model;
  options.network.leaves = experiments;
  model::LeafModel leaves(options);
  model::load_parameters(*leaves, "leaves.", joint_checkpoint(run_dir),
                         config::RunLayout{run_dir}.joint_checkpoint());
  return leaves;
}

namespace {

/// RUN_DIR/discrepancy.json, read once; std::nullopt when the run has none.
std::optional<solve::DiscrepancyFile> stored_discrepancy(const std::string& run_dir) {
  const std::string path = config::RunLayout{run_dir}.discrepancy();
  if (!std::filesystem::exists(path)) return std::nullopt;
  return solve::read_discrepancy_file(path);
}

/// Sets kappa, tau^2, T and the order of options from predict.discrepancy: "fixed" the
/// configuration's, "none" kappa = 1 and tau = 0, "calibrated" the stored file's (none, with
/// a warning when `warn`, without one).
void set_discrepancy(solve::PredictorOptions& options, const config::PredictConfig& predict,
                     const std::optional<solve::DiscrepancyFile>& stored,
                     const std::string& run_dir, bool warn) {
  if (predict.discrepancy == "fixed") return;  // options are the configuration's
  options.discrepancy_variance = 0.0;
  options.spread_inflation = 1.0;
  if (predict.discrepancy == "none") return;
  if (stored) {
    options.spread_inflation = stored->inflation;
    options.discrepancy_variance = stored->variance;
    options.discrepancy_timescale = stored->timescale;
    options.discrepancy_order = stored->order;
    return;
  }
  if (!warn) return;
  std::fprintf(stderr,
               "warning: %s is missing: the band is uncalibrated, the root's posterior alone "
               "(too narrow where the leaves' errors bias f); `bhpm calibrate %s` fits the "
               "calibration when the run has 2 or more training experiments\n",
               config::RunLayout{run_dir}.discrepancy().c_str(), run_dir.c_str());
}

/// Tells on stderr which of config::calibrated_solver_keys() differ between the stored
/// calibration's configuration and this prediction's: its tau^2 or kappa was fitted to the
/// error and spread of ensembles sampled and solved otherwise (on a kdv-quick training,
/// calibrated with max_rounds = 200 tau^2 = 9.1e-5, with 2 tau^2 = 1.47e-4;
/// docs/calibration.md, "Choosing the form by transfer").
void warn_of_other_solver_settings(const solve::DiscrepancyFile& stored,
                                   const std::string& resolved_toml, const std::string& run_dir) {
  const std::string path = config::RunLayout{run_dir}.discrepancy();
  const std::vector<std::string> differences = config::stored_differences(
      path, stored.config, resolved_toml, config::calibrated_solver_keys());
  if (differences.empty()) return;
  std::fprintf(stderr,
               "warning: %s was calibrated on ensembles sampled or solved with other settings "
               "(%s): its model discrepancy was fitted to their error, not to this "
               "prediction's; run `bhpm calibrate %s` with these settings\n",
               path.c_str(), config::listed_differences(differences).c_str(), run_dir.c_str());
}

bool conserves_mean(const config::PredictConfig& predict,
                    const std::optional<solve::DiscrepancyFile>& stored) {
  if (predict.conservation != "auto") return predict.conservation == "mean";
  return stored && stored->conserve_mean;
}

/// predict.equation_terms = "weak-form": the weak form's shift (pipeline/weak_form_shift.h),
/// or none with a warning (when `warn`) saying why it could not be fitted.
std::shared_ptr<const solve::OperatorShift> equation_shift(const TrainedRun& run,
                                                           const std::string& run_dir, bool warn) {
  const config::PredictConfig& predict = run.config.predict;
  if (predict.equation_terms != "weak-form" || predict.operator_source != "gp") return nullptr;
  std::string why;
  std::shared_ptr<const solve::OperatorShift> shift = weak_form_shift(run_dir, run, why);
  if (!shift && warn)
    std::fprintf(stderr,
                 "warning: predict.equation_terms = \"weak-form\": no weak form (%s); the "
                 "equation's terms keep the root's coefficients\n",
                 why.c_str());
  return shift;
}

}  // namespace

solve::PredictorOptions predictor_options(const TrainedRun& run, const std::string& run_dir,
                                          bool warn) {
  solve::PredictorOptions options = run.config.predict.options;
  const double prior_variance = run.root->kernel()->prior_variance().item<double>();
  options.refinement.tolerance = run.config.predict.relative_tolerance * prior_variance;
  const std::optional<solve::DiscrepancyFile> stored = stored_discrepancy(run_dir);
  set_discrepancy(options, run.config.predict, stored, run_dir, warn);
  // The operator method solves no ensemble: no solver setting enters its kappa.
  if (warn && stored && stored->method == "trajectories" &&
      run.config.predict.discrepancy == "calibrated")
    warn_of_other_solver_settings(*stored, run.config.resolved_toml, run_dir);
  options.conserve_mean = conserves_mean(run.config.predict, stored);
  options.shift = equation_shift(run, run_dir, warn);
  solve::validate(options);
  return options;
}

std::string band_calibration(const TrainedRun& run, const std::string& run_dir) {
  if (run.config.predict.operator_source != "gp")
    return "uncalibrated: the distilled equation's coefficient samples (no model discrepancy)";
  const std::string& source = run.config.predict.discrepancy;
  if (source == "fixed") return "fixed by the configuration";
  if (source == "none")
    return "uncalibrated: predict.discrepancy = \"none\" (the root's posterior alone)";
  const std::optional<solve::DiscrepancyFile> stored = stored_discrepancy(run_dir);
  if (!stored) return "uncalibrated: no discrepancy.json (the root's posterior alone)";
  return "calibrated (" + stored->method + ")";
}

ExperimentProblem experiment_problem(const config::RunConfig& config, const pde::ExperimentSet& set,
                                     std::int64_t experiment) {
  if (!set.conditions.empty())
    throw std::invalid_argument("set '" + set.name +
                                "' lies on a bounded domain: its experiments are not solved on a "
                                "periodic grid");
  const std::int64_t n = set.x.size(0), times = set.t.size(0);
  const double spacing = (set.x[1] - set.x[0]).item<double>();
  const double x_min = set.x[0].item<double>();
  pde::SolveOptions solve = config.simulate.solve;
  solve.t_end = set.t[times - 1].item<double>();
  solve.output_dt = (set.t[1] - set.t[0]).item<double>();
  config::apply_time_steps(config.predict, solve);
  const at::Tensor truth = set.u[experiment];
  return {{pde::PeriodicGrid(x_min, x_min + spacing * static_cast<double>(n), n), truth[0].clone(),
           solve, nullptr},
          truth};
}

}  // namespace bhpm::pipeline
