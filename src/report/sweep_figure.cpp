#include "report/sweep_figure.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "report/figure_writer.h"
#include "report/gnuplot.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

/// The values as numbers, or an empty vector when one of them is not a number.
std::vector<double> numeric_values(const std::vector<eval::SweepRow>& rows) {
  std::vector<double> values;
  for (const auto& row : rows) {
    char* end = nullptr;
    const double value = std::strtod(row.value.c_str(), &end);
    if (end == row.value.c_str() || *end != '\0' || !std::isfinite(value)) return {};
    values.push_back(value);
  }
  return values;
}

bool spans_decades(const std::vector<double>& values) {
  const auto [low, high] = std::minmax_element(values.begin(), values.end());
  return *low > 0.0 && *high / *low > 10.0;
}

/// "set xtics ('a' 0, 'b' 1, ...)" for values that are not numbers.
std::string label_tics(const std::vector<eval::SweepRow>& rows) {
  std::string tics = "set xtics (";
  for (std::size_t i = 0; i < rows.size(); ++i)
    tics += (i ? ", " : "") + gnuplot_string(rows[i].value) + " " + std::to_string(i);
  return tics + ")\n";
}

/// Columns x, mean, min, max of one metric over the values with a finished repeat.
Columns metric_columns(const std::vector<double>& x, const std::vector<eval::SweepRow>& rows,
                       eval::Spread eval::SweepRow::*metric) {
  Columns columns(4);
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const eval::Spread& s = rows[i].*metric;
    if (rows[i].finished == 0) continue;
    columns[0].push_back(x[i]);
    columns[1].push_back(s.mean);
    columns[2].push_back(s.min);
    columns[3].push_back(s.max);
  }
  return columns;
}

}  // namespace

std::string draw_sweep_figure(const std::string& folder, const std::string& key,
                              const std::vector<eval::SweepRow>& rows, const std::string& gnuplot) {
  if (std::none_of(rows.begin(), rows.end(), [](const auto& row) { return row.finished > 0; }))
    throw std::invalid_argument("sweep figure: no value has a finished run");
  std::vector<double> x = numeric_values(rows);
  const bool labelled = x.empty();
  if (labelled)
    for (std::size_t i = 0; i < rows.size(); ++i) x.push_back(static_cast<double>(i));

  FigureWriter writer(folder, gnuplot);
  write_column_blocks(writer.data_file("sweep.dat"),
                      {metric_columns(x, rows, &eval::SweepRow::rmse),
                       metric_columns(x, rows, &eval::SweepRow::mean_nlpd)});
  const std::string data = FigureWriter::data_reference("sweep.dat");
  std::string commands = multiplot_commands(1, 2,
                                            "Held-out accuracy of the learned operator against " +
                                                key + " (mean and range of the repeats)");
  commands += "set xlabel " + gnuplot_string(key) + "\nset grid\nset key below\n";
  commands +=
      labelled
          ? label_tics(rows) +
                "set xrange [-0.5:" + util::format_significant(rows.size() - 0.5, 6) + "]\n"
          : (spans_decades(x) ? "set logscale x\n" : "set offsets graph 0.05, graph 0.05, 0, 0\n");
  commands +=
      "set ylabel 'RMSE of f (u per unit time, dimensionless)'\n"
      "plot " +
      data + " index 0 using 1:2:3:4 with yerrorlines pt 7 lw 2 title 'RMSE: mean, min to max'\n";
  commands +=
      "set ylabel 'MNLP: mean negative log predictive density (nats)'\n"
      "plot " +
      data +
      " index 1 using 1:2:3:4 with yerrorlines pt 7 lw 2 lc 2 title 'MNLP: mean, min to max'\n";
  commands += "unset multiplot\n";
  return (std::filesystem::path(folder) / writer.draw("sweep", {1400, 600}, commands)).string();
}

}  // namespace bhpm::report
