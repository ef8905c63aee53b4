#include "report/run_report.h"

#include <filesystem>
#include <stdexcept>

#include "config/run_layout.h"
#include "io/atomic_file.h"
#include "report/calibration_figure.h"
#include "report/dataset_figure.h"
#include "report/distillation_figure.h"
#include "report/html_report.h"
#include "report/input_file.h"
#include "report/prediction_figures.h"
#include "report/refinement_figure.h"
#include "report/root_inputs_figure.h"
#include "report/system_report.h"
#include "report/training_figure.h"

namespace bhpm::report {

namespace {

namespace fs = std::filesystem;

/// What goes into the report, gathered while the figures are drawn.
struct ReportContent {
  HtmlReport page;
  std::string data_path;  ///< "" when there is no dataset
};

config::RunLayout run_layout(const ReportOptions& options) { return {options.run_dir}; }

void require_run_folder(const ReportOptions& options) {
  if (!fs::exists(options.run_dir))
    throw std::runtime_error("run folder '" + options.run_dir + "' does not exist");
  if (!fs::is_directory(options.run_dir))
    throw std::runtime_error("run folder '" + options.run_dir + "' is not a folder");
  const std::string root = run_layout(options).root();
  if (!fs::exists(root) && !fs::exists(run_layout(options).refinement()))
    throw std::runtime_error(root +
                             " is missing (run `bhpm train` first; a folder without a "
                             "trained model needs at least refinement.h5)");
}

/// The resolved configuration shown on the page: the trained model's (root.h5), else the
/// refinement study's; "" when neither stores one.
std::string run_configuration(const ReportOptions& options) {
  const std::string root = run_layout(options).root();
  if (fs::exists(root)) return open_input(root, "bhpm-root").string_attribute("config");
  return string_or_empty(open_input(run_layout(options).refinement(), "bhpm-refinement-study"),
                         "config");
}

/// The dataset to draw: the one given (which must exist), else RUN_DIR/data.h5 if present.
std::string resolve_data_path(const ReportOptions& options) {
  if (!options.data_path.empty()) {
    if (!fs::is_regular_file(options.data_path))
      throw std::runtime_error("dataset '" + options.data_path + "' does not exist");
    return options.data_path;
  }
  const std::string default_path = run_layout(options).data();
  return fs::exists(default_path) ? default_path : "";
}

void add_predictions(FigureWriter& writer, const ReportOptions& options, ReportContent& content) {
  const auto files = run_layout(options).predictions();
  if (files.empty())
    content.page.omitted.push_back("prediction figures: no " +
                                   run_layout(options).file("prediction*.h5") +
                                   " (run `bhpm predict`)");
  std::vector<PredictionCalibration> calibrations;
  for (const auto& path : files) {
    const PredictionFile prediction = read_prediction_file(path);
    PredictionSummary summary = summarize_prediction(prediction);
    PredictionCalibration calibration = prediction_calibration(path);
    if (!calibration.stem.empty()) {
      summary.crps = calibration.crps;
      calibrations.push_back(std::move(calibration));
    }
    content.page.metrics.predictions.push_back(std::move(summary));
    if (!has_statistics(prediction)) {
      content.page.omitted.push_back(prediction.stem + ".png, " + prediction.stem +
                                     "-std.png: every sample diverged (no statistics to draw)");
      continue;
    }
    for (Figure& figure : draw_prediction_figures(writer, prediction))
      content.page.figures.push_back(std::move(figure));
  }
  if (calibrations.empty())
    content.page.omitted.push_back(
        "reliability.png: no prediction with a stored truth and two sound samples (predict with "
        "--ic-from)");
  else
    content.page.figures.push_back(draw_calibration_figure(writer, calibrations));
}

void add_training_curves(FigureWriter& writer, const ReportOptions& options,
                         ReportContent& content) {
  const config::RunLayout run = run_layout(options);
  std::vector<TrainingCurve> curves;
  for (const std::string phase : {"leaves", "exact_gp", "joint"})
    if (fs::exists(run.history(phase))) curves.push_back({phase, run.history(phase)});
  if (curves.empty())
    content.page.omitted.push_back("training.png: no " + run.file("history-*.csv") +
                                   " (run `bhpm train`; runs trained before training histories "
                                   "existed have none)");
  else
    content.page.figures.push_back(draw_training_figure(writer, curves));
}

void add_figures(FigureWriter& writer, const ReportOptions& options, ReportContent& content) {
  if (content.data_path.empty())
    content.page.omitted.push_back("datasets.png: no dataset (" + run_layout(options).data() +
                                   " is absent; pass --data)");
  else
    content.page.figures.push_back(draw_dataset_figure(writer, content.data_path));
  add_training_curves(writer, options, content);
  const std::string root = run_layout(options).root();
  if (fs::exists(root))
    content.page.figures.push_back(draw_root_inputs_figure(writer, root));
  else
    content.page.omitted.push_back("root-inputs.png: no " + root + " (run `bhpm train`)");
  const std::string distillation = run_layout(options).distillation();
  if (fs::exists(distillation))
    content.page.figures.push_back(draw_distillation_figure(writer, distillation));
  else
    content.page.omitted.push_back("distill.png: no " + distillation + " (run `bhpm distill`)");
  add_predictions(writer, options, content);
  const std::string refinement = run_layout(options).refinement();
  if (fs::exists(refinement))
    content.page.figures.push_back(draw_refinement_figure(writer, refinement));
  else
    content.page.omitted.push_back("refinement.png: no " + refinement +
                                   " (run `bhpm refinement-study -o " + refinement + "`)");
}

void add_operator_metrics(const ReportOptions& options, ReportContent& content) {
  const std::string held_out = run_layout(options).held_out_metrics();
  const std::string training = run_layout(options).training_metrics();
  if (fs::exists(held_out))
    content.page.metrics.held_out = eval::read_operator_scores(held_out);
  else
    content.page.omitted.push_back("held-out operator metrics: no " + held_out +
                                   " (run `bhpm evaluate`)");
  if (fs::exists(training))
    content.page.metrics.training_grid = eval::read_operator_scores(training);
}

/// The true equation (metrics.json, else the dataset's attribute) and the learned mean.
void add_equation(ReportContent& content) {
  const auto& held_out = content.page.metrics.held_out;
  if (held_out) {
    content.page.equation = held_out->true_equation;
    content.page.learned_mean = held_out->learned_mean;
  }
  if (content.page.equation.empty() && !content.data_path.empty())
    content.page.equation =
        string_or_empty(open_input(content.data_path, "bhpm-dataset"), "equation");
}

}  // namespace

ReportSummary write_report(const ReportOptions& options) {
  if (fs::exists(run_layout(options).system_model())) return write_system_report(options);
  require_run_folder(options);
  ReportContent content;
  content.data_path = resolve_data_path(options);
  content.page.run_dir = options.run_dir;
  content.page.config = run_configuration(options);
  const std::string output =
      options.output_dir.empty() ? run_layout(options).report() : options.output_dir;
  io::AtomicFolder folder(output);
  FigureWriter writer(folder.temporary_path(), options.gnuplot);
  add_operator_metrics(options, content);
  add_equation(content);
  add_figures(writer, options, content);
  io::write_text_atomically((fs::path(folder.temporary_path()) / "index.html").string(),
                            html_report(content.page));
  io::write_text_atomically((fs::path(folder.temporary_path()) / "metrics.json").string(),
                            report_metrics_json(options.run_dir, content.page.metrics));
  folder.commit();
  ReportSummary summary{(fs::path(folder.target_path()) / "index.html").string(),
                        (fs::path(folder.target_path()) / "metrics.json").string(),
                        {},
                        content.page.omitted};
  for (const auto& figure : content.page.figures)
    summary.figures.push_back((fs::path(folder.target_path()) / figure.file).string());
  return summary;
}

}  // namespace bhpm::report
