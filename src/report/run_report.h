#pragma once
/// The report of a run folder (the last stage of `bhpm run`): PNG figures drawn
/// with gnuplot, an index.html with a metrics table, and metrics.json with the table's
/// numbers, written to RUN_DIR/report (docs/run-folder.md, "report/").
///
/// Figures (each omitted, with the reason listed, when its input file is absent):
///   datasets.png              the dataset's experiments (dataset_figure.h)
///   training.png              RUN_DIR/history-*.csv's training curves (training_figure.h)
///   root-inputs.png           root.h5's root inputs and inducing inputs (root_inputs_figure.h)
///   distill.png               RUN_DIR/distill.json's terms and intervals (distillation_figure.h)
///   <stem>.png, <stem>-std.png  per RUN_DIR/prediction*.h5 (prediction_figures.h)
///   refinement.png            RUN_DIR/refinement.h5 (refinement_figure.h)
///
/// A field system's run folder (it holds system.ckpt) gets report/system_report.h's report
/// instead.
///
/// The folder is built in a temporary sibling and replaces the old report only when every
/// part succeeded (io::AtomicFolder): a failure leaves the previous report and no temporary
/// folder behind.

#include <string>
#include <vector>

namespace bhpm::report {

struct ReportOptions {
  std::string run_dir;
  std::string data_path;   ///< dataset (format bhpm-dataset); "" = RUN_DIR/data.h5 if it exists
  std::string output_dir;  ///< "" = RUN_DIR/report
  std::string gnuplot = "gnuplot";  ///< program that draws the figures (a name in PATH or a path)
};

struct ReportSummary {
  std::string index_html;            ///< path of the written index.html
  std::string metrics_json;          ///< path of the written metrics.json
  std::vector<std::string> figures;  ///< paths of the written PNGs, in the page's order
  std::vector<std::string> omitted;  ///< "figure: why" for each part left out
};

/// Writes the report; throws std::runtime_error naming the file and the rule for a missing
/// run folder, a folder with neither RUN_DIR/root.h5 nor RUN_DIR/refinement.h5 (a
/// refinement-only run has no trained model), an input of the wrong format or shape, and when
/// gnuplot is missing or fails.
ReportSummary write_report(const ReportOptions& options);

}  // namespace bhpm::report
