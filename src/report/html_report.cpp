#include "report/html_report.h"

#include "util/number_format.h"

namespace bhpm::report {

namespace {

constexpr const char* kStyle =
    "body{font-family:sans-serif;max-width:1450px;margin:1.5em auto;padding:0 1em;color:#222}"
    "table{border-collapse:collapse;margin:.5em 0 1em}"
    "th,td{border:1px solid #bbb;padding:.3em .6em;text-align:right}"
    "th{background:#eee}td.text,th.text{text-align:left}"
    "figure{margin:1.5em 0}img{max-width:100%;border:1px solid #ddd}"
    "figcaption{max-width:1200px;margin-top:.4em}"
    "pre{background:#f6f6f6;padding:1em;overflow-x:auto}.note{color:#555;font-size:.92em}";

constexpr const char* kExplanation =
    "BHPM learns the operator F of a PDE u<sub>t</sub> = F[u] from measured data as a "
    "Gaussian-process "
    "posterior. Each training experiment has a leaf, a neural network fitted to its noisy "
    "measurements, which supplies the root inputs v = (u, u<sub>x</sub>, ...) and the target "
    "u<sub>t</sub> at the measured points; the root, a sparse GP, learns u<sub>t</sub> = f(v) with "
    "its uncertainty, which is small where the data put many root inputs and large elsewhere. "
    "The operator metrics score the root's predictive distribution of u<sub>t</sub> against the "
    "true operator at exact derivatives of stored solutions: the error of its mean (RMSE), the "
    "negative log predictive density (NLPD; lower is better) and the fraction of points inside its "
    "central 50, 90 and 95 % intervals, which a calibrated posterior matches. Predictions solve "
    "new "
    "initial-value problems under samples of the learned operator: the spread of the solutions is "
    "the uncertainty of the learned physics carried into the solution.";

std::string cell(const std::string& text, bool numeric = true) {
  return numeric ? "<td>" + text + "</td>" : "<td class=\"text\">" + escape_html(text) + "</td>";
}

std::string operator_row(const std::string& label, const eval::OperatorScores& scores) {
  return "<tr>" + cell(label, false) + cell(util::format_number(scores.points)) +
         cell(util::format_number(scores.rmse)) + cell(util::format_number(scores.relative_rmse)) +
         cell(util::format_number(scores.median_nlpd)) +
         cell(util::format_number(scores.mean_nlpd)) +
         cell(util::format_percent(scores.coverage50)) +
         cell(util::format_percent(scores.coverage90)) +
         cell(util::format_percent(scores.coverage95)) + "</tr>\n";
}

std::string operator_table(const ReportMetrics& metrics) {
  std::string html = "<h2>The learned operator</h2>\n";
  if (!metrics.held_out && !metrics.training_grid && metrics.held_out_fields.empty())
    return html + "<p>No metrics: run <code>bhpm evaluate</code> to score the operator.</p>\n";
  html +=
      "<table>\n<tr><th class=\"text\">points scored</th><th>points</th><th>RMSE of "
      "u<sub>t</sub></th>"
      "<th>relative RMSE</th><th>median NLPD</th><th>mean NLPD</th><th>50 % coverage</th>"
      "<th>90 % coverage</th><th>95 % coverage</th></tr>\n";
  if (metrics.held_out)
    html += operator_row("held-out experiments (metrics.json)", *metrics.held_out);
  if (metrics.training_grid)
    html += operator_row("training experiments' whole grids (metrics-train.json)",
                         *metrics.training_grid);
  for (const auto& [field, scores] : metrics.held_out_fields)
    html += operator_row("held-out experiments, " + field + "_t (metrics.json)", scores);
  return html +
         "</table>\n<p class=\"note\">Relative RMSE is the RMSE over the standard deviation of "
         "the target u<sub>t</sub>. Coverage is the fraction of points inside the central interval "
         "of the predictive distribution; for a calibrated posterior it is close to the nominal "
         "50, 90 and 95 %.</p>\n";
}

std::string prediction_row(const PredictionSummary& summary) {
  return "<tr>" + cell(summary.file, false) + cell(summary.initial_condition, false) +
         cell(summary.sampler + " / " + summary.solver, false) +
         cell(util::format_number(summary.samples)) + cell(util::format_number(summary.diverged)) +
         cell(util::format_number(summary.rejected)) + cell(util::format_number(summary.repaired)) +
         cell(util::format_percent(summary.outside_coverage)) +
         cell(summary.scored_on.empty() ? "n/a" : summary.scored_on, false) +
         cell(util::format_number(summary.relative_l2)) + cell(util::format_number(summary.rmse)) +
         cell(util::format_percent(summary.coverage95)) +
         cell(util::format_number(summary.rms_std)) +
         cell(util::format_number(summary.rmse_over_rms_std)) +
         cell(util::format_number(summary.crps)) + "</tr>\n";
}

std::string prediction_table(const std::vector<PredictionSummary>& predictions) {
  std::string html = "<h2>Predictions</h2>\n";
  if (predictions.empty())
    return html +
           "<p>No prediction files: run <code>bhpm predict</code> to write "
           "RUN_DIR/prediction*.h5.</p>\n";
  html +=
      "<table>\n<tr><th class=\"text\">file</th><th class=\"text\">initial condition</th>"
      "<th class=\"text\">sampler / solver</th><th>samples</th><th>diverged</th>"
      "<th>rejected as ill-posed</th><th>repaired</th><th>path outside the data's coverage</th>"
      "<th class=\"text\">scored on</th><th>relative L2 of the mean</th><th>RMSE of the mean</th>"
      "<th>inside the 95 % band</th>"
      "<th>RMS ensemble std</th><th>RMSE / RMS std</th><th>CRPS</th></tr>\n";
  for (const auto& summary : predictions) html += prediction_row(summary);
  return html +
         "</table>\n<p class=\"note\">The errors are those of the ensemble mean against the "
         "stored true solution, over every grid point and output time; for a prediction on an "
         "experiment's own window, against its measurements (held back from every fit for a "
         "held-out experiment), the band then being that of a measurement (noise included); "
         "n/a without either. "
         "RMSE / RMS std is a calibration check: about 1 when the ensemble's spread matches "
         "the error of its mean, above 1 when the band is too narrow (overconfident), below 1 "
         "when it is too wide. CRPS (continuous ranked probability score, fair estimator) "
         "rewards a sharp ensemble that holds the truth; lower is better. Rejected samples were "
         "ill-posed along the initial condition and left out; the path outside the data's "
         "coverage is where the root's posterior variance exceeds a tenth of its prior "
         "variance.</p>\n";
}

std::string figures_section(const std::vector<Figure>& figures) {
  std::string html = "<h2>Figures</h2>\n";
  for (const auto& figure : figures)
    html += "<figure id=\"" + escape_html(figure.file) + "\"><img src=\"" +
            escape_html(figure.file) + "\" alt=\"" + escape_html(figure.title) +
            "\"><figcaption><b>" + escape_html(figure.title) + ".</b> " +
            escape_html(figure.caption) + "</figcaption></figure>\n";
  return html;
}

std::string omitted_section(const std::vector<std::string>& omitted) {
  if (omitted.empty()) return "";
  std::string html = "<h2>Not in this report</h2>\n<ul>\n";
  for (const auto& line : omitted) html += "<li>" + escape_html(line) + "</li>\n";
  return html + "</ul>\n";
}

std::string heading(const HtmlReport& report) {
  std::string html = "<h1>BHPM report: " + escape_html(report.run_dir) + "</h1>\n";
  if (!report.equation.empty())
    html += "<p>True equation of the data: <code>" + escape_html(report.equation) + "</code></p>\n";
  if (!report.learned_mean.empty())
    html += "<p>Learned mean of the operator: <code>" + escape_html(report.learned_mean) +
            "</code></p>\n";
  return html + "<p>" + kExplanation + "</p>\n";
}

}  // namespace

std::string escape_html(const std::string& text) {
  std::string escaped;
  for (const char c : text) {
    switch (c) {
      case '&':
        escaped += "&amp;";
        break;
      case '<':
        escaped += "&lt;";
        break;
      case '>':
        escaped += "&gt;";
        break;
      case '"':
        escaped += "&quot;";
        break;
      case '\'':
        escaped += "&#39;";
        break;
      default:
        escaped += c;
    }
  }
  return escaped;
}

std::string html_report(const HtmlReport& report) {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>BHPM "
         "report: " +
         escape_html(report.run_dir) + "</title>\n<style>" + kStyle +
         "</style>\n</head>\n<body>\n" + heading(report) + operator_table(report.metrics) +
         prediction_table(report.metrics.predictions) + figures_section(report.figures) +
         omitted_section(report.omitted) + "<h2>Configuration</h2>\n<pre>" +
         escape_html(report.config) + "</pre>\n" +
         "<p class=\"note\">Written by <code>bhpm report</code>. Each figure's gnuplot script and "
         "data "
         "are in data/ (redraw with <code>gnuplot data/NAME.gp</code> from this folder); the "
         "numbers "
         "of the tables are in metrics.json.</p>\n</body>\n</html>\n";
}

}  // namespace bhpm::report
