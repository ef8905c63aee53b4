#pragma once
/// index.html of the report: one self-contained page (inline style, no scripts, no
/// external assets; the figures are the PNGs beside it) with the run, the equation, a short
/// explanation, the metrics table, the figures with captions saying what to look for, the
/// figures that were omitted and why, and the resolved configuration.

#include <string>
#include <vector>

#include "report/figure_writer.h"
#include "report/report_metrics.h"

namespace bhpm::report {

struct HtmlReport {
  std::string run_dir;
  std::string equation;      ///< the true equation of the data; "" when unknown
  std::string learned_mean;  ///< the root's learned linear mean; "" when unknown
  ReportMetrics metrics;
  std::vector<Figure> figures;
  std::vector<std::string> omitted;  ///< "figure: why"
  std::string config;                ///< the resolved TOML configuration of the run
};

/// The page as UTF-8 text; every string from the inputs is HTML-escaped.
std::string html_report(const HtmlReport& report);

/// `text` with &, <, >, " and ' replaced by character references.
std::string escape_html(const std::string& text);

}  // namespace bhpm::report
