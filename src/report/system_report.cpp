#include "report/system_report.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

#include "config/run_layout.h"
#include "io/atomic_file.h"
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

/// One field of a system's prediction file: [T, n_x] arrays over x and t.
struct FieldPrediction {
  std::string field;
  std::vector<double> mean, band_width, truth;  ///< truth empty when not stored
  std::string scores;                           ///< the stored scores as text ("" without truth)
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

FieldPrediction read_field(const io::Hdf5Location& file, const std::string& field,
                           std::size_t times, std::size_t points) {
  const io::Hdf5Location group = file.open_group(field);
  const auto read = [&](const std::string& name) {
    return read_array(group, name, {times, points}, "t,x").values;
  };
  FieldPrediction prediction{field, read("mean"), read("upper"), {}, score_text(group)};
  const std::vector<double> lower = read("lower");
  for (std::size_t k = 0; k < lower.size(); ++k) prediction.band_width[k] -= lower[k];
  if (group.has("truth")) prediction.truth = read("truth");
  return prediction;
}

/// |mean - truth| [T, n].
std::vector<double> absolute_error(const FieldPrediction& field) {
  std::vector<double> error(field.mean.size());
  for (std::size_t k = 0; k < error.size(); ++k)
    error[k] = std::abs(field.mean[k] - field.truth[k]);
  return error;
}

Figure draw_field(FigureWriter& writer, const std::string& stem, const std::string& source,
                  const std::vector<double>& x, const std::vector<double>& t,
                  const FieldPrediction& field) {
  const std::string name = stem + "-" + field.field;
  std::vector<double> both = field.mean;  // the mean and the truth share one colour scale
  both.insert(both.end(), field.truth.begin(), field.truth.end());
  const ColourScale field_scale = colour_scale_for(finite_range(both));
  std::vector<std::pair<HeatmapPanel, std::vector<double>>> panels = {
      {{"members' mean of " + field.field, name + "-mean.bin", dimensionless(field.field),
        field_scale},
       field.mean},
      {{"width of the 95 % band", name + "-band.bin", dimensionless(field.field),
        colour_scale_for(finite_range(field.band_width))},
       field.band_width}};
  if (!field.truth.empty()) {
    const std::vector<double> error = absolute_error(field);
    panels.push_back(
        {{"true " + field.field, name + "-truth.bin", dimensionless(field.field), field_scale},
         field.truth});
    panels.push_back({{"|mean - truth|", name + "-error.bin", dimensionless(field.field),
                       colour_scale_for(finite_range(error))},
                      error});
  }
  std::string commands = multiplot_commands(rows_for(static_cast<int>(panels.size()), 2), 2,
                                            source + ": " + field.field + " predicted");
  for (const auto& [panel, values] : panels) {
    write_binary_matrix(writer.data_file(panel.data), {x, t, values});
    commands += heatmap_commands(panel);
  }
  commands += "unset multiplot\n";
  const int rows = rows_for(static_cast<int>(panels.size()), 2);
  return {writer.draw(name, {1400, rows * 520 + 60}, commands),
          source + ": " + field.field + " predicted",
          "The members' mean of " + field.field +
              " over (x, t) and the width of its 95 % prediction band" +
              (field.truth.empty()
                   ? ". "
                   : ", the true solution and the mean's absolute error (" + field.scores +
                         "). Look whether the error stays within half the band's width. ") +
              "The band is uncalibrated: the roots' plain posterior (docs/systems.md)."};
}

/// Draws every field of one prediction file; a 2-D file is listed as omitted.
void add_prediction(FigureWriter& writer, const std::string& path, HtmlReport& page) {
  const io::Hdf5Location file = open_input(path, "bhpm-system-prediction");
  const std::string stem = fs::path(path).stem().string();
  if (file.number_attribute("dimensions") != 1.0) {
    page.omitted.push_back(stem + "-<field>.png: " + path +
                           " is a 2-D prediction; its heat maps are not drawn yet");
    return;
  }
  const std::vector<double> t = read_array(file, "t", {0}, "t").values;
  const std::vector<double> x = read_array(file, "x", {0}, "x").values;
  const std::string source =
      fs::path(path).filename().string() + " (" + file.string_attribute("initial_condition") + ")";
  if (page.equation.empty()) page.equation = file.string_attribute("system");
  if (page.config.empty()) page.config = file.string_attribute("config");
  for (const std::string& field : util::split_at_commas(file.string_attribute("fields")))
    page.figures.push_back(
        draw_field(writer, stem, source, x, t, read_field(file, field, t.size(), x.size())));
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
  page.omitted.push_back(
      "datasets, training curves, root inputs, distillation and operator metrics: not drawn for "
      "a field system yet (`bhpm evaluate` and `bhpm distill` print theirs)");
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
