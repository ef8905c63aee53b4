#pragma once
/// The report of a field system's run folder (it holds system.ckpt; docs/systems.md,
/// "Predicting with a system"): for each RUN_DIR/prediction*.h5 (format
/// bhpm-system-prediction, src/pipeline/system_prediction_file.h) and each field,
/// <stem>-<field>.png: the members' mean and the 95 % band's width, and, where the file
/// stores the truth, the truth and |mean - truth|, as heat maps over (x, t) in 1-D and over
/// (x, y) at the first, middle and last output times in 2-D; index.html lists them with each
/// field's scores in the captions, each field's operator scores from RUN_DIR/metrics.json
/// (`bhpm evaluate`) when there is one, distill-<field>.png from RUN_DIR/distill.json
/// (report/distillation_figure.h), the parts left out and the run's configuration; the
/// report writes no metrics.json of its own (ReportSummary::metrics_json is ""). Written as
/// write_report writes (report/run_report.h: io::AtomicFolder, RUN_DIR/report by default).

#include "report/run_report.h"

namespace bhpm::report {

/// Throws std::runtime_error naming the file for a prediction file of another format or
/// shape, and when gnuplot fails.
ReportSummary write_system_report(const ReportOptions& options);

}  // namespace bhpm::report
