#include "report/run_report.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "report/dataset_figure.h"
#include "report/html_report.h"
#include "report/input_file.h"
#include "report/prediction_figures.h"
#include "report/refinement_figure.h"
#include "report/root_inputs_figure.h"

namespace bhpm::report {

namespace {

namespace fs = std::filesystem;

/// What goes into the report, gathered while the figures are drawn.
struct ReportContent {
  HtmlReport page;
  std::string data_path;  ///< "" when there is no dataset
};

std::string in_run(const ReportOptions& options, const std::string& name) {
  return (fs::path(options.run_dir) / name).string();
}

void require_run_folder(const ReportOptions& options) {
  if (!fs::exists(options.run_dir))
    throw std::runtime_error("run folder '" + options.run_dir + "' does not exist");
  if (!fs::is_directory(options.run_dir))
    throw std::runtime_error("run folder '" + options.run_dir + "' is not a folder");
  const std::string root = in_run(options, "root.h5");
  if (!fs::exists(root) && !fs::exists(in_run(options, "refinement.h5")))
    throw std::runtime_error(root + " is missing (run `bhpm train` first; a folder without a "
                             "trained model needs at least refinement.h5)");
}

/// The resolved configuration shown on the page: the trained model's (root.h5), else the
/// refinement study's; "" when neither stores one.
std::string run_configuration(const ReportOptions& options) {
  const std::string root = in_run(options, "root.h5");
  if (fs::exists(root)) return open_input(root, "bhpm-root").string_attribute("config");
  return string_or_empty(open_input(in_run(options, "refinement.h5"), "bhpm-refinement-study"),
                         "config");
}

/// The dataset to draw: the one given (which must exist), else RUN_DIR/data.h5 if present.
std::string resolve_data_path(const ReportOptions& options) {
  if (!options.data_path.empty()) {
    if (!fs::is_regular_file(options.data_path))
      throw std::runtime_error("dataset '" + options.data_path + "' does not exist");
    return options.data_path;
  }
  const std::string default_path = in_run(options, "data.h5");
  return fs::exists(default_path) ? default_path : "";
}

/// RUN_DIR/prediction*.h5, sorted by name.
std::vector<std::string> prediction_files(const std::string& run_dir) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(run_dir)) {
    const std::string name = entry.path().filename().string();
    if (entry.is_regular_file() && name.rfind("prediction", 0) == 0 && entry.path().extension() == ".h5")
      files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

void add_predictions(FigureWriter& writer, const ReportOptions& options, ReportContent& content) {
  const auto files = prediction_files(options.run_dir);
  if (files.empty())
    content.page.omitted.push_back("prediction figures: no " + in_run(options, "prediction*.h5") +
                                   " (run `bhpm predict`)");
  for (const auto& path : files) {
    const PredictionFile prediction = read_prediction_file(path);
    content.page.metrics.predictions.push_back(summarize_prediction(prediction));
    if (!has_statistics(prediction)) {
      content.page.omitted.push_back(prediction.stem + ".png, " + prediction.stem +
                                     "-std.png: every sample diverged (no statistics to draw)");
      continue;
    }
    for (Figure& figure : draw_prediction_figures(writer, prediction)) content.page.figures.push_back(std::move(figure));
  }
}

void add_figures(FigureWriter& writer, const ReportOptions& options, ReportContent& content) {
  if (content.data_path.empty())
    content.page.omitted.push_back("datasets.png: no dataset (" + in_run(options, "data.h5") +
                                   " is absent; pass --data)");
  else
    content.page.figures.push_back(draw_dataset_figure(writer, content.data_path));
  const std::string root = in_run(options, "root.h5");
  if (fs::exists(root))
    content.page.figures.push_back(draw_root_inputs_figure(writer, root));
  else
    content.page.omitted.push_back("root-inputs.png: no " + root + " (run `bhpm train`)");
  add_predictions(writer, options, content);
  const std::string refinement = in_run(options, "refinement.h5");
  if (fs::exists(refinement))
    content.page.figures.push_back(draw_refinement_figure(writer, refinement));
  else
    content.page.omitted.push_back("refinement.png: no " + refinement + " (run `bhpm refinement-study -o " +
                                   refinement + "`)");
}

void add_operator_metrics(const ReportOptions& options, ReportContent& content) {
  const std::string held_out = in_run(options, "metrics.json");
  const std::string training = in_run(options, "metrics-train.json");
  if (fs::exists(held_out))
    content.page.metrics.held_out = read_operator_scores(held_out);
  else
    content.page.omitted.push_back("held-out operator metrics: no " + held_out + " (run `bhpm evaluate`)");
  if (fs::exists(training)) content.page.metrics.training_grid = read_operator_scores(training);
}

/// The true equation (metrics.json, else the dataset's attribute) and the learned mean.
void add_equation(ReportContent& content) {
  const auto& held_out = content.page.metrics.held_out;
  if (held_out) {
    content.page.equation = held_out->true_equation;
    content.page.learned_mean = held_out->learned_mean;
  }
  if (content.page.equation.empty() && !content.data_path.empty())
    content.page.equation = string_or_empty(open_input(content.data_path, "bhpm-dataset"), "equation");
}

void write_text(const fs::path& path, const std::string& text) {
  std::ofstream file(path);
  file << text;
  if (!file) throw std::runtime_error(path.string() + ": could not be written");
}

}  // namespace

ReportSummary write_report(const ReportOptions& options) {
  require_run_folder(options);
  ReportContent content;
  content.data_path = resolve_data_path(options);
  content.page.run_dir = options.run_dir;
  content.page.config = run_configuration(options);
  const std::string output = options.output_dir.empty() ? in_run(options, "report") : options.output_dir;
  io::AtomicFolder folder(output);
  FigureWriter writer(folder.temporary_path(), options.gnuplot);
  add_operator_metrics(options, content);
  add_equation(content);
  add_figures(writer, options, content);
  write_text(fs::path(folder.temporary_path()) / "index.html", html_report(content.page));
  write_text(fs::path(folder.temporary_path()) / "metrics.json",
             report_metrics_json(options.run_dir, content.page.metrics));
  folder.commit();
  ReportSummary summary{(fs::path(folder.target_path()) / "index.html").string(),
                        (fs::path(folder.target_path()) / "metrics.json").string(), {}, content.page.omitted};
  for (const auto& figure : content.page.figures)
    summary.figures.push_back((fs::path(folder.target_path()) / figure.file).string());
  return summary;
}

}  // namespace bhpm::report
