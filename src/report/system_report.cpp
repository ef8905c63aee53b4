#include "report/system_report.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/run_layout.h"
#include "eval/metrics_json.h"
#include "io/atomic_file.h"
#include "report/distillation_figure.h"
#include "report/figure_writer.h"
#include "report/html_report.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/comma_list.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace fs = std::filesystem;

namespace {

/// One field of a system's prediction file: [T, n] arrays, n = n_x or n_y n_x (rows of y).
struct FieldPrediction {
  std::string field;
  std::vector<double> mean, band_width, truth;  ///< truth empty when not stored
  std::string scores;                           ///< the stored scores as text ("" without truth)
  std::string band;                             ///< how the band was calibrated
};

std::string score_text(const io::Hdf5Location& group) {
  if (!group.has_attribute("coverage")) return "";
  return "relative L2 of the means' solve " +
         util::format_significant(group.number_attribute("mean_operator_error"), 3) +
         ", of the members' mean " +
         util::format_significant(group.number_attribute("ensemble_mean_error"), 3) +
         "; the band holds " +
         util::format_significant(100.0 * group.number_attribute("coverage"), 3) +
         " % of the truth; RMS error / RMS spread " +
         util::format_significant(group.number_attribute("error_over_spread"), 3);
}

/// `shape` [T, n_x] or [T, n_y, n_x], `dims` its axes' names.
FieldPrediction read_field(const io::Hdf5Location& file, const std::string& field,
                           const std::vector<std::size_t>& shape, const std::string& dims) {
  const io::Hdf5Location group = file.open_group(field);
  const auto read = [&](const std::string& name) {
    return read_array(group, name, shape, dims).values;
  };
  FieldPrediction prediction{field,
                             read("mean"),
                             read("upper"),
                             {},
                             score_text(group),
                             file.has_attribute("calibration")
                                 ? file.string_attribute("calibration")
                                 : "uncalibrated: the roots' plain posterior"};
  const std::vector<double> lower = read("lower");
  for (std::size_t k = 0; k < lower.size(); ++k) prediction.band_width[k] -= lower[k];
  if (group.has("truth")) prediction.truth = read("truth");
  return prediction;
}

/// What a field's figure shows, each over (x, t) or at snapshots over (x, y): the members'
/// mean and the band's width, and with a truth the truth (on the mean's colour scale) and
/// |mean - truth|.
struct Quantity {
  std::string title;
  std::string suffix;  ///< of its data files' names
  std::vector<double> values;
  ColourScale scale;
};

std::vector<Quantity> field_quantities(const FieldPrediction& field) {
  std::vector<double> both = field.mean;  // the mean and the truth share one colour scale
  both.insert(both.end(), field.truth.begin(), field.truth.end());
  const ColourScale field_scale = colour_scale_for(finite_range(both));
  std::vector<Quantity> quantities = {
      {"members' mean of " + field.field, "mean", field.mean, field_scale},
      {"width of the 95 % band", "band", field.band_width,
       colour_scale_for(finite_range(field.band_width))}};
  if (field.truth.empty()) return quantities;
  std::vector<double> error(field.mean.size());
  for (std::size_t k = 0; k < error.size(); ++k)
    error[k] = std::abs(field.mean[k] - field.truth[k]);
  quantities.push_back({"true " + field.field, "truth", field.truth, field_scale});
  quantities.push_back({"|mean - truth|", "error", error, colour_scale_for(finite_range(error))});
  return quantities;
}

/// `band`: the prediction file's calibration line.
std::string field_caption(const FieldPrediction& field, const std::string& where,
                          const std::string& band) {
  return "The members' mean of " + field.field + " " + where +
         " and the width of its 95 % prediction band" +
         (field.truth.empty()
              ? ". "
              : ", the true solution and the mean's absolute error (" + field.scores +
                    "). Look whether the error stays within half the band's width. ") +
         "The band: " + band + " (docs/systems.md).";
}

/// A 1-D field: one heat map over (x, t) per quantity, two a row.
Figure draw_field(FigureWriter& writer, const std::string& stem, const std::string& source,
                  const std::vector<double>& x, const std::vector<double>& t,
                  const FieldPrediction& field) {
  const std::string name = stem + "-" + field.field;
  const std::vector<Quantity> quantities = field_quantities(field);
  const int rows = rows_for(static_cast<int>(quantities.size()), 2);
  std::string commands = multiplot_commands(rows, 2, source + ": " + field.field + " predicted");
  for (const Quantity& quantity : quantities) {
    const HeatmapPanel panel{quantity.title, name + "-" + quantity.suffix + ".bin",
                             dimensionless(field.field), quantity.scale};
    write_binary_matrix(writer.data_file(panel.data), {x, t, quantity.values});
    commands += heatmap_commands(panel);
  }
  commands += "unset multiplot\n";
  return {writer.draw(name, {1400, rows * 520 + 60}, commands),
          source + ": " + field.field + " predicted",
          field_caption(field, "over (x, t)", field.band)};
}

/// Snapshot times of a 2-D figure: the first, middle and last output times.
constexpr std::size_t kSnapshots = 3;

/// A 2-D field: a row per quantity, a heat map over (x, y) at each snapshot time.
Figure draw_field_2d(FigureWriter& writer, const std::string& stem, const std::string& source,
                     const std::vector<double>& x, const std::vector<double>& y,
                     const std::vector<double>& t, const FieldPrediction& field) {
  const std::string name = stem + "-" + field.field;
  const std::vector<std::size_t> snapshots = evenly_spaced_indices(t.size(), kSnapshots);
  const std::vector<Quantity> quantities = field_quantities(field);
  const int rows = static_cast<int>(quantities.size()),
            columns = static_cast<int>(snapshots.size());
  std::string commands =
      multiplot_commands(rows, columns, source + ": " + field.field + " predicted");
  const std::size_t points = x.size() * y.size();
  std::string times;
  for (const Quantity& quantity : quantities)
    for (const std::size_t k : snapshots) {
      const std::string when = "t = " + util::format_significant(t[k], 3);
      const HeatmapPanel panel{quantity.title + ", " + when,
                               name + "-" + quantity.suffix + "-" + std::to_string(k) + ".bin",
                               dimensionless(field.field), quantity.scale, kYLabel};
      const auto first = quantity.values.begin() + static_cast<std::ptrdiff_t>(k * points);
      write_binary_matrix(
          writer.data_file(panel.data),
          {x, y, std::vector<double>(first, first + static_cast<std::ptrdiff_t>(points))});
      commands += heatmap_commands(panel);
      if (&quantity == &quantities.front()) times += (times.empty() ? "" : ", ") + when;
    }
  commands += "unset multiplot\n";
  return {writer.draw(name, {columns * 520, rows * 440 + 60}, commands),
          source + ": " + field.field + " predicted",
          field_caption(field, "over (x, y) at " + times, field.band)};
}

/// Draws every field of one prediction file.
void add_prediction(FigureWriter& writer, const std::string& path, HtmlReport& page) {
  const io::Hdf5Location file = open_input(path, "bhpm-system-prediction");
  const std::string stem = fs::path(path).stem().string();
  const bool two = file.number_attribute("dimensions") == 2.0;
  const std::vector<double> t = read_array(file, "t", {0}, "t").values;
  const std::vector<double> x = read_array(file, "x", {0}, "x").values;
  const std::vector<double> y =
      two ? read_array(file, "y", {0}, "y").values : std::vector<double>();
  const std::string source =
      fs::path(path).filename().string() + " (" + file.string_attribute("initial_condition") + ")";
  if (page.equation.empty()) page.equation = file.string_attribute("system");
  if (page.config.empty()) page.config = file.string_attribute("config");
  for (const std::string& field : util::split_at_commas(file.string_attribute("fields"))) {
    if (!two) {
      page.figures.push_back(draw_field(writer, stem, source, x, t,
                                        read_field(file, field, {t.size(), x.size()}, "t,x")));
      continue;
    }
    page.figures.push_back(
        draw_field_2d(writer, stem, source, x, y, t,
                      read_field(file, field, {t.size(), y.size(), x.size()}, "t,y,x")));
  }
}

}  // namespace

ReportSummary write_system_report(const ReportOptions& options) {
  const config::RunLayout layout{options.run_dir};
  const std::string output = options.output_dir.empty() ? layout.report() : options.output_dir;
  io::AtomicFolder folder(output);
  FigureWriter writer(folder.temporary_path(), options.gnuplot);
  HtmlReport page;
  page.run_dir = options.run_dir;
  const std::vector<std::string> files = layout.predictions();
  if (files.empty())
    page.omitted.push_back("prediction figures: no " + layout.file("prediction*.h5") +
                           " (run `bhpm predict`)");
  for (const std::string& path : files) add_prediction(writer, path, page);
  if (fs::exists(layout.held_out_metrics()))
    page.metrics.held_out_fields = eval::read_field_operator_scores(layout.held_out_metrics());
  if (fs::exists(layout.distillation())) {
    for (const auto& [field, file] : eval::read_system_distillation_file(layout.distillation()))
      page.figures.push_back(draw_distillation_figure(writer, file, "distill-" + field,
                                                      "Distilled equation of " + field + "_t"));
  } else {
    page.omitted.push_back("distillation: no " + layout.distillation() + " (run `bhpm distill`)");
  }
  page.omitted.push_back(
      "datasets, training curves and root inputs: not drawn for a field system yet");
  io::write_text_atomically((fs::path(folder.temporary_path()) / "index.html").string(),
                            html_report(page));
  folder.commit();
  ReportSummary summary{
      (fs::path(folder.target_path()) / "index.html").string(), "", {}, page.omitted};
  for (const Figure& figure : page.figures)
    summary.figures.push_back((fs::path(folder.target_path()) / figure.file).string());
  return summary;
}

}  // namespace bhpm::report
