#pragma once
/// `bhpm run` on a field system's configuration (docs/systems.md, "The whole job"): the
/// stages of its [run] section (simulate, train, evaluate, distill, predict, report;
/// config/pipeline_config.h, system_pipeline_stages) through the system's commands, each
/// skipped when its output in RUN_DIR is newer than its inputs. cli/run_command.h holds the
/// folder's lock, its run.toml and run.log; cli/pipeline_checks.h checks the folder first.

#include <string>

namespace bhpm::config {
struct RunLayout;
struct SystemConfig;
}  // namespace bhpm::config

namespace bhpm::cli {

struct RunCommandOptions;

/// Checks before any work, `source` the configuration's file: run.data a dataset of this
/// system (measurements only: no run.predict_experiments), a system of unknown equations
/// simulated by no stage, run.predict_ic_files present, a held-out set to evaluate and the
/// predicted experiments in it, each stage's input made by a listed stage or present, data.h5 made
/// by this configuration (or a copy of run.data) and system.ckpt too, on every section but [run]
/// (config::system_model_sections). Throws config::ConfigError naming the field and the rule,
/// std::runtime_error naming the file.
void check_system_run(const config::SystemConfig& config, const config::RunLayout& run,
                      const std::string& source);

/// Whether the run's data are a system's imported measurements (run.data of version 4):
/// no solution grid, so the evaluate stage scores without a truth.
bool system_run_data_measured_only(const config::SystemConfig& config);

/// One stage of the run, `stage` a name of config::system_pipeline_stages(). Evaluate
/// scores the held-out set at up to kSystemRunEvaluationPoints grid points (or, on
/// measurements only, new leaves' points); predict solves
/// each run.predict_experiments (prediction-test-<e>.h5, scored against its solution) and
/// run.predict_ic_files (prediction-<stem>.h5); distill and predict take the run's
/// [distill] and [predict] overrides, the other sections being fixed by the trained model.
void run_system_stage(const std::string& stage, const RunCommandOptions& options,
                      const config::SystemConfig& config, const config::RunLayout& run);

/// Grid points of the held-out set the evaluate stage scores at most: a system's exact GP
/// costs (rows)^2 per point for the variances (docs/systems.md, "Learning a system").
inline constexpr long long kSystemRunEvaluationPoints = 20000;

}  // namespace bhpm::cli
