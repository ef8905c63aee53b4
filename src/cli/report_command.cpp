#include "cli/report_command.h"

#include <CLI/CLI.hpp>

#include <cstdio>
#include <memory>

#include "io/folder_lock.h"
#include "report/run_report.h"

namespace bhpm::cli {

void setup_report(CLI::App& app) {
  auto options = std::make_shared<ReportCommandOptions>();
  CLI::App* command = app.add_subcommand(
      "report", "Draw the run's figures (gnuplot) and write index.html with the metrics table");
  command->add_option("run_dir", options->run_dir, "Run folder written by `bhpm train`")
      ->required();
  command->add_option("-o,--output", options->output_dir, "Report folder (default RUN_DIR/report)");
  command->add_option("--data", options->data_path,
                      "Dataset whose experiments to draw (default RUN_DIR/data.h5 when present)");
  command->add_option("--gnuplot", options->gnuplot, "gnuplot program (a name in PATH or a path)");
  command->add_flag("-q,--quiet", options->quiet, "Print nothing on success");
  command->callback([options] { throw CLI::RuntimeError(run_report(*options)); });
}

int run_report(const ReportCommandOptions& options) {
  const io::FolderLock lock(options.run_dir, io::FolderLock::Mode::exclusive, "bhpm report");
  const report::ReportSummary summary = report::write_report(
      {options.run_dir, options.data_path, options.output_dir, options.gnuplot});
  if (options.quiet) return 0;
  for (const auto& figure : summary.figures) std::printf("figure: %s\n", figure.c_str());
  for (const auto& omitted : summary.omitted) std::printf("omitted: %s\n", omitted.c_str());
  std::printf("report: %s\n", summary.index_html.c_str());
  return 0;
}

}  // namespace bhpm::cli
