#pragma once
/// `bhpm report RUN_DIR [-o DIR] [--data DATA.h5] [--gnuplot PROGRAM] [-q]`
///
/// Draws the run's figures with gnuplot (the dataset, the root inputs, every
/// RUN_DIR/prediction*.h5, RUN_DIR/refinement.h5) and writes index.html with the metrics
/// table and metrics.json with its numbers (report/run_report.h; default RUN_DIR/report,
/// replaced whole only when everything succeeded). Prints one line per figure written,
/// the parts left out and why, and the index path, unless -q. A field system's run gets each
/// prediction's heat maps per field instead (report/system_report.h).

#include <string>

namespace CLI {
class App;
}

namespace bhpm::cli {

struct ReportCommandOptions {
  std::string run_dir;
  std::string data_path;   ///< "" = RUN_DIR/data.h5 when present
  std::string output_dir;  ///< "" = RUN_DIR/report
  std::string gnuplot = "gnuplot";
  bool quiet = false;
};

void setup_report(CLI::App& app);
int run_report(const ReportCommandOptions& options);

}  // namespace bhpm::cli
