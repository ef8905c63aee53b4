#include "cli/distill_command.h"

#include <ATen/ATen.h>
#include <CLI/CLI.hpp>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/process_setup.h"
#include "cli/setting_flags.h"
#include "cli/system_learning.h"
#include "config/run_layout.h"
#include "eval/distillation_file.h"
#include "eval/weak_form_distillation.h"
#include "io/atomic_file.h"
#include "io/folder_lock.h"
#include "pipeline/run_distillation.h"
#include "pipeline/run_folder.h"
#include "util/stopwatch.h"

namespace bhpm::cli {

namespace {

/// The settings line and every term some sample kept.
void print_table(const eval::Distillation& d, const pipeline::DistillPoints& points,
                 std::int64_t samples, bool resampled) {
  std::vector<double> sorted = d.thresholds;
  std::sort(sorted.begin(), sorted.end());
  std::string variables;
  for (const auto& name : d.library.variables) variables += (variables.empty() ? "" : ", ") + name;
  std::printf(
      "distill: %lld pathwise samples of the root at %lld root inputs of %lld training "
      "experiment(s); library: %lld monomials of (%s) up to degree %d; threshold by %lld-fold "
      "cross-validation (one-standard-error rule), median %.3g%s\n",
      static_cast<long long>(samples), static_cast<long long>(points.v.size(0)),
      static_cast<long long>(points.experiments), static_cast<long long>(d.library.size()),
      variables.c_str(), d.library.degree, static_cast<long long>(points.folds),
      sorted[sorted.size() / 2],
      resampled ? "; each sample fitted on its own bootstrap resample of the experiments" : "");
  std::printf("%s", eval::distillation_table(d).c_str());
}

/// The summary; `quiet`: the equation, the truth and the explained fraction only.
void print_distillation(const eval::Distillation& d, const pipeline::DistillPoints& points,
                        std::int64_t samples, bool resampled, const std::string& truth,
                        bool quiet) {
  if (!quiet) print_table(d, points, samples, resampled);
  std::printf("%s\n", eval::distilled_equation(d).c_str());
  if (!truth.empty())
    std::printf("true operator: %s (explains %.4f %% of the posterior mean's variance)\n",
                truth.c_str(), 100.0 * d.truth_explained);
  std::printf(
      "the equation explains %.4f %% of the posterior mean's variance on the points (misfit RMS "
      "%.3g, posterior std of f RMS %.3g)\n",
      100.0 * d.explained, d.misfit_rms, d.posterior_std_rms);
  const std::string warning = eval::distillation_warning(d);
  if (!warning.empty()) std::fprintf(stderr, "%s\n", warning.c_str());
}

/// The weak form's settings line and table (unless `quiet`) and its equation.
void print_weak_form(const eval::WeakFormDistillation& w, const std::string& settings, bool quiet) {
  if (!quiet)
    std::printf("distill, weak form: %s\n%s", settings.c_str(),
                eval::terms_table(w.terms, w.has_truth).c_str());
  std::printf("weak form: %s\n", eval::equation_text(w.terms).c_str());
}

}  // namespace

void setup_distill(CLI::App& app) {
  auto options = std::make_shared<DistillCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "distill", "The learned operator as an equation: terms, inclusion probabilities, intervals");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required()
      ->check(CLI::ExistingDirectory);
  command->add_option("-o,--output", options->output_path,
                      "Distillation file (JSON; default RUN_DIR/distill.json)");
  command
      ->add_option("--data", options->data_path,
                   "Dataset whose stored equation is the truth (default RUN_DIR/data.h5)")
      ->check(CLI::ExistingFile);
  auto add_flag = [&](const std::string& flag, const std::string& key, const std::string& help) {
    add_setting_flag(*command, options->flag_overrides, flag, "distill." + key, help);
  };
  add_flag("--samples", "samples", "Number of operator samples S (>= 2; default 64)");
  add_flag("--degree", "degree", "Largest total degree of a library monomial (1 to 5; default 3)");
  add_override_option(*command, options->overrides,
                      "Override a setting, e.g. --set distill.max_points=8192");
  command->add_flag("-q,--quiet", options->quiet,
                    "Only the equation and how much it explains, not the table of terms");
  command->callback([options] { throw CLI::RuntimeError(run_distill(*options)); });
}

std::string distillation_output(const DistillCommandOptions& options) {
  return options.output_path.empty() ? config::RunLayout{options.run_dir}.distillation()
                                     : options.output_path;
}

std::vector<std::string> distill_overrides(const DistillCommandOptions& options) {
  std::vector<std::string> overrides = options.overrides;
  overrides.insert(overrides.end(), options.flag_overrides.begin(), options.flag_overrides.end());
  return overrides;
}

int run_distill(const DistillCommandOptions& options) {
  if (holds_a_system(options.run_dir)) return run_system_distillation(options);
  const util::Stopwatch stopwatch;
  const std::string output = distillation_output(options);
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm distill");
  io::require_output_folder(output);
  const pipeline::TrainedRun run =
      pipeline::load_trained_run(options.run_dir, distill_overrides(options), options.config_path);
  for (at::Tensor& parameter : run.root->parameters()) parameter.requires_grad_(false);
  use_threads(0);
  const pipeline::RunDistillation fit =
      pipeline::distill_run(options.run_dir, options.data_path, run);
  if (run.config.distill.weak_form && !fit.weak_form)
    std::fprintf(stderr, "distill: no equation in weak form: %s\n", fit.weak_form_missing.c_str());
  io::write_text_atomically(output,
                            eval::distillation_json(fit.pointwise, fit.record,
                                                    fit.weak_form ? &*fit.weak_form : nullptr));
  print_distillation(fit.pointwise, fit.points, fit.record.samples, fit.record.resampled, fit.truth,
                     options.quiet);
  if (fit.weak_form)
    print_weak_form(*fit.weak_form,
                    eval::weak_form_settings(*fit.weak_form, fit.points.experiments,
                                             fit.record.weak_x_points, fit.record.weak_t_points),
                    options.quiet);
  std::printf("wrote %s (%.1f s)\n", output.c_str(), stopwatch.seconds());
  return 0;
}

}  // namespace bhpm::cli
