#pragma once
/// The report of a field system's run folder (it holds system.ckpt; docs/systems.md,
/// "Predicting with a system"): for each RUN_DIR/prediction*.h5 (format
/// bhpm-system-prediction, src/pipeline/system_prediction_file.h) and each field of a 1-D
/// system, <stem>-<field>.png: heat maps over (x, t) of the members' mean and the 95 %
/// band's width, and, where the file stores the truth, of the truth and |mean - truth|;
/// index.html lists them with each field's scores in the captions, the parts left out (2-D
/// predictions are not drawn yet) and the run's configuration; there is no metrics.json
/// (ReportSummary::metrics_json is ""). Written as write_report writes (report/run_report.h:
/// io::AtomicFolder, RUN_DIR/report by default).

#include "report/run_report.h"

namespace bhpm::report {

/// Throws std::runtime_error naming the file for a prediction file of another format or
/// shape, and when gnuplot fails.
ReportSummary write_system_report(const ReportOptions& options);

}  // namespace bhpm::report
