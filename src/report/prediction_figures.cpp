#include "report/prediction_figures.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "report/gnuplot.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

/// Row `i` of a [T, n] field.
std::vector<double> at_time(const std::vector<double>& field, std::size_t i, std::size_t n) {
  const auto first = field.begin() + static_cast<std::ptrdiff_t>(i * n);
  return {first, first + static_cast<std::ptrdiff_t>(n)};
}

/// Columns x, mean, band lower, band upper [, truth] at output time i.
Columns profile_columns(const PredictionFile& prediction, std::size_t i) {
  const std::size_t n = prediction.x.size();
  Columns columns = {prediction.x, at_time(prediction.mean, i, n), at_time(prediction.lower, i, n),
                     at_time(prediction.upper, i, n)};
  if (!prediction.truth.empty()) columns.push_back(at_time(prediction.truth, i, n));
  return columns;
}

/// "set yrange" shared by the panels: the band and the truth at the shown times, padded 5 %
/// below and 30 % above, where the key goes.
std::string shared_y_range(const std::vector<Columns>& blocks) {
  std::vector<double> bounds;
  for (const auto& block : blocks)
    for (std::size_t c = 1; c < block.size(); ++c) {
      const auto [low, high] = finite_range(block[c]);
      bounds.insert(bounds.end(), {low, high});
    }
  auto [low, high] = finite_range(bounds);
  const double pad = std::max(0.05 * (high - low), 1e-9 * std::max(1.0, std::abs(high)));
  return range_command("y", low - pad, high + 6 * pad);
}

std::string profile_panel(const std::string& data, std::size_t block, double time, double samples,
                          bool with_truth) {
  const std::string source = FigureWriter::data_reference(data) + " index " + std::to_string(block);
  std::string commands = "set title " + gnuplot_string("t = " + util::format_number(time)) +
                         "\nplot " + source +
                         " using 1:3:4 with filledcurves fc rgb '#9ecae1' fs solid 0.7 noborder "
                         "title '95% band (2.5 to 97.5 %)', " +
                         source + " using 1:2 with lines lw 2 lc rgb '#08519c' title " +
                         gnuplot_string("mean of " + util::format_number(samples) + " samples");
  if (with_truth)
    commands += ", " + source + " using 1:5 with lines dt 2 lw 2 lc rgb 'black' title 'truth'";
  return commands + "\n";
}

Figure draw_profiles(FigureWriter& writer, const PredictionFile& prediction,
                     const std::string& file) {
  const std::vector<std::size_t> times = evenly_spaced_indices(prediction.t.size(), kProfileTimes);
  std::vector<Columns> blocks;
  for (const std::size_t i : times) blocks.push_back(profile_columns(prediction, i));
  const std::string data = prediction.stem + "-profiles.dat";
  write_column_blocks(writer.data_file(data), blocks);
  const int columns = times.size() > 2 ? 2 : static_cast<int>(times.size());
  const int rows = rows_for(static_cast<int>(times.size()), columns);
  std::string commands =
      multiplot_commands(rows, columns,
                         file + ": ensemble mean and 95% band, " +
                             util::format_number(prediction.samples) + " samples (" +
                             util::format_number(prediction.diverged) + " diverged); " +
                             prediction.initial_condition) +
      "set xlabel " + gnuplot_string(kXLabel) + "\nset ylabel 'u (dimensionless)'\nset grid\n" +
      "set key top right box opaque\n" + shared_y_range(blocks);
  for (std::size_t b = 0; b < times.size(); ++b)
    commands += profile_panel(data, b, prediction.t[times[b]], prediction.samples,
                              !prediction.truth.empty());
  commands += "unset multiplot\n";
  return {writer.draw(prediction.stem, {1200, rows * 420 + 60}, commands),
          file + ": predicted solutions",
          "The mean of the solutions under the sampled operators (blue line) and the 95 % "
          "prediction band for the truth (shaded: mean +- t sqrt(1 + 1/m) std over the m sound "
          "samples), against the true solution where " +
              file +
              " stores one (dashed), at four output times. Look whether the truth stays inside the "
              "band: a truth outside a narrow band means an overconfident operator posterior (the "
              "table's RMSE / RMS std ratio above 1)."};
}

Figure draw_std_maps(FigureWriter& writer, const PredictionFile& prediction,
                     const std::string& file) {
  const HeatmapPanel panels[] = {
      {"operator std along the mean solution", prediction.stem + "-operator-std.bin",
       "posterior std of f = u_t (dimensionless)",
       colour_scale_for(finite_range(prediction.operator_std))},
      {"ensemble std of u", prediction.stem + "-ensemble-std.bin", "std of u (dimensionless)",
       colour_scale_for(finite_range(prediction.std))}};
  write_binary_matrix(writer.data_file(panels[0].data),
                      {prediction.x, prediction.t, prediction.operator_std});
  write_binary_matrix(writer.data_file(panels[1].data),
                      {prediction.x, prediction.t, prediction.std});
  const std::string commands =
      multiplot_commands(1, 2, file + ": uncertainty of the operator and of the solution") +
      heatmap_commands(panels[0]) + heatmap_commands(panels[1]) + "unset multiplot\n";
  return {
      writer.draw(prediction.stem + "-std", {1400, 600}, commands),
      file + ": where the uncertainty comes from",
      "Left: the root's posterior standard deviation of f(v) along the mean solution, high where "
      "the solution visits states the training data did not cover, so that the prediction leans "
      "on extrapolated physics. Right: the standard deviation of u across the ensemble. Look for "
      "the solution's spread growing after the operator std is high."};
}

/// Column j of a [T, n] field: its values at x_j over time.
std::vector<double> at_point(const std::vector<double>& field, std::size_t j, std::size_t n) {
  std::vector<double> column;
  for (std::size_t i = j; i < field.size(); i += n) column.push_back(field[i]);
  return column;
}

/// Columns t, mean, band lower, band upper [, truth], then each condition's g, at the end x_j.
Columns end_columns(const PredictionFile& prediction, std::size_t j, const EndConditions& end) {
  const std::size_t n = prediction.x.size(), times = prediction.t.size();
  Columns columns = {prediction.t, at_point(prediction.mean, j, n),
                     at_point(prediction.lower, j, n), at_point(prediction.upper, j, n)};
  if (!prediction.truth.empty()) columns.push_back(at_point(prediction.truth, j, n));
  for (std::size_t c = 0; c < end.conditions.size(); ++c) {
    const auto first = end.values.begin() + static_cast<std::ptrdiff_t>(c * times);
    columns.emplace_back(first, first + static_cast<std::ptrdiff_t>(times));
  }
  return columns;
}

std::string end_panel(const std::string& data, std::size_t block, const std::string& title,
                      const EndConditions& end, bool with_truth) {
  const std::string source = FigureWriter::data_reference(data) + " index " + std::to_string(block);
  std::string commands =
      "set title " + gnuplot_string(title) + "\nplot " + source +
      " using 1:3:4 with filledcurves fc rgb '#9ecae1' fs solid 0.7 noborder title '95% band', " +
      source + " using 1:2 with lines lw 2 lc rgb '#08519c' title 'mean u'";
  if (with_truth)
    commands += ", " + source + " using 1:5 with lines dt 2 lw 2 lc rgb 'black' title 'true u'";
  const std::size_t first_data = with_truth ? 6 : 5;
  for (std::size_t c = 0; c < end.conditions.size(); ++c)
    commands += ", " + source + " using 1:" + std::to_string(first_data + c) + " with points pt " +
                std::to_string(7 + 2 * static_cast<int>(c)) + " ps 0.8 lc rgb '#d95f02' title " +
                gnuplot_string("data g of " + end.conditions[c]);
  return commands + "\n";
}

/// u at both ends over time (mean, band, truth) with the conditions' data g(t).
Figure draw_boundary_traces(FigureWriter& writer, const PredictionFile& prediction,
                            const std::string& file) {
  const std::size_t n = prediction.x.size();
  const std::vector<Columns> blocks = {end_columns(prediction, 0, prediction.left),
                                       end_columns(prediction, n - 1, prediction.right)};
  const std::string data = prediction.stem + "-boundary.dat";
  write_column_blocks(writer.data_file(data), blocks);
  const auto title = [&](const char* end, double x, const EndConditions& conditions) {
    std::string text = std::string(end) + " end x = " + util::format_number(x) + ": ";
    if (conditions.conditions.empty()) return text + "no condition (outflow)";
    for (std::size_t c = 0; c < conditions.conditions.size(); ++c)
      text += (c ? ", " : "") + conditions.conditions[c];
    return text;
  };
  std::string commands = multiplot_commands(1, 2,
                                            file +
                                                ": the solution at the ends and the "
                                                "boundary data") +
                         "set xlabel " + gnuplot_string(kTLabel) + "\nset ylabel " +
                         gnuplot_string("u, or the condition's quantity (dimensionless)") +
                         "\nset grid\nset key top right box opaque\n";
  commands += end_panel(data, 0, title("left", prediction.x.front(), prediction.left),
                        prediction.left, !prediction.truth.empty());
  commands += end_panel(data, 1, title("right", prediction.x.back(), prediction.right),
                        prediction.right, !prediction.truth.empty());
  commands += "unset multiplot\n";
  return {writer.draw(prediction.stem + "-boundary", {1400, 520}, commands),
          file + ": at the boundary",
          "The ensemble mean of u at each end of the domain (blue line) and its 95 % band over "
          "time, the true u there where " +
              file +
              " stores one (dashed), and each boundary condition's data g(t) (points). A "
              "condition on u itself (u = g) puts the points on the mean; a condition on a "
              "derivative (u_x = g, alpha u + beta u_x = g) plots g in that quantity's units, "
              "and the mean of u there is what the solution made of it."};
}

}  // namespace

bool has_statistics(const PredictionFile& prediction) {
  return std::any_of(prediction.mean.begin(), prediction.mean.end(),
                     [](double u) { return std::isfinite(u); });
}

std::vector<Figure> draw_prediction_figures(FigureWriter& writer,
                                            const PredictionFile& prediction) {
  if (!has_statistics(prediction))
    throw std::invalid_argument(prediction.path + ": statistics/mean holds no finite value");
  const std::string file = std::filesystem::path(prediction.path).filename().string();
  std::vector<Figure> figures = {draw_profiles(writer, prediction, file),
                                 draw_std_maps(writer, prediction, file)};
  if (prediction.bounded) figures.push_back(draw_boundary_traces(writer, prediction, file));
  return figures;
}

}  // namespace bhpm::report
