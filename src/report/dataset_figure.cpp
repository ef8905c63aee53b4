#include "report/dataset_figure.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "pde/dataset_file.h"
#include "pde/measured_dataset_file.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"

namespace bhpm::report {

namespace {

constexpr std::size_t kHeldOutPanels = 2;
/// Points drawn per measured experiment: the first ones of its random order, a random subset.
constexpr std::int64_t kScatterPoints = 20000;

/// One experiment: a solution grid (version 1 files) or its measurements (version 2).
struct ExperimentPanel {
  std::string title;
  std::string data;  ///< data file name
  GridField field;   ///< empty for measurements
  Columns points;    ///< x, t, u of the measurements; empty for a grid

  const std::vector<double>& values() const { return points.empty() ? field.values : points[2]; }
};

/// The first `limit` experiments of the set `set` of the file, titled "LABEL experiment e".
std::vector<ExperimentPanel> set_panels(const io::Hdf5Location& file, const std::string& set,
                                        std::size_t limit, const std::string& label) {
  const io::Hdf5Location group = file.open_group(set);
  const auto x = read_array(group, "x", {0}, "x");
  const auto t = read_array(group, "t", {0}, "t");
  const auto u = read_array(group, "u", {0, t.values.size(), x.values.size()}, "experiment, t, x");
  const std::size_t size = x.values.size() * t.values.size();
  std::vector<ExperimentPanel> panels;
  for (std::size_t e = 0; e < std::min(limit, u.shape[0]); ++e) {
    const auto first = u.values.begin() + static_cast<std::ptrdiff_t>(e * size);
    panels.push_back({label + " " + std::to_string(e),
                      "datasets-" + set + "-" + std::to_string(e) + ".bin",
                      {x.values, t.values,
                       std::vector<double>(first, first + static_cast<std::ptrdiff_t>(size))},
                      {}});
  }
  return panels;
}

/// The first `limit` experiments of set `set` of a version 2 file, as scatter panels.
std::vector<ExperimentPanel> measured_panels(const std::string& path, const std::string& set,
                                             std::size_t limit, const std::string& label) {
  std::vector<ExperimentPanel> panels;
  const auto experiments = pde::read_measured_set(path, set);
  for (std::size_t e = 0; e < std::min(limit, experiments.size()); ++e) {
    const pde::MeasuredExperiment& experiment = experiments[e];
    const std::int64_t shown = std::min(experiment.points(), kScatterPoints);
    ExperimentPanel panel{
        label + " " + experiment.name + " (" + std::to_string(experiment.points()) + " points)",
        "datasets-" + set + "-" + std::to_string(e) + ".dat",
        {},
        {}};
    for (const at::Tensor& column : {experiment.x, experiment.t, experiment.u}) {
      const at::Tensor first = column.slice(0, 0, shown).contiguous();
      panel.points.emplace_back(first.data_ptr<double>(), first.data_ptr<double>() + shown);
    }
    panels.push_back(std::move(panel));
  }
  return panels;
}

/// The panels of the training set and the first held-out experiments of a dataset file.
std::vector<ExperimentPanel> dataset_panels(const std::string& data_path, bool grids) {
  const io::Hdf5Location file = open_input(data_path, "bhpm-dataset");
  auto panels_of = [&](const std::string& set, std::size_t limit, const std::string& label) {
    return grids ? set_panels(file, set, limit, label + " experiment")
                 : measured_panels(data_path, set, limit, label);
  };
  std::vector<ExperimentPanel> panels = panels_of("train", SIZE_MAX, "training");
  if (panels.empty()) throw std::runtime_error(file.describe("train") + ": holds no experiment");
  if (file.has("test")) {
    auto held_out = panels_of("test", kHeldOutPanels, "held-out (test)");
    panels.insert(panels.end(), held_out.begin(), held_out.end());
  }
  return panels;
}

/// Columns of the panel grid: one row up to three panels, 2 x 2 for four, else three per row.
int columns_for(int panels) {
  if (panels <= 3) return panels;
  return panels == 4 ? 2 : 3;
}

FigureSize size_for(int rows, int columns) {
  const int width = std::clamp(600 * columns, 1000, 1400);
  const int row_height = std::clamp(width * 4 / (5 * columns), 340, 560);
  return {width, rows * row_height + 50};
}

std::pair<double, double> shared_range(const std::vector<ExperimentPanel>& panels) {
  std::vector<double> bounds;
  for (const auto& panel : panels) {
    const auto [low, high] = finite_range(panel.values());
    bounds.insert(bounds.end(), {low, high});
  }
  return finite_range(bounds);
}

}  // namespace

Figure draw_dataset_figure(FigureWriter& writer, const std::string& data_path) {
  open_input(data_path, "bhpm-dataset");  // names the file and its format when it is another
  const bool grids = pde::read_dataset_metadata(data_path).format_version == 1;
  const std::vector<ExperimentPanel> panels = dataset_panels(data_path, grids);
  const ColourScale scale = colour_scale_for(shared_range(panels));
  const int columns = columns_for(static_cast<int>(panels.size()));
  const int rows = rows_for(static_cast<int>(panels.size()), columns);
  const std::string name = std::filesystem::path(data_path).filename().string();
  std::string commands = multiplot_commands(
      rows, columns,
      name + (grids ? ": u(x, t) of the training experiments and the first held-out ones"
                    : ": the measurements of the training experiments and the first held-out "
                      "ones"));
  for (const auto& panel : panels) {
    const HeatmapPanel style{panel.title, panel.data, "u (dimensionless)", scale};
    if (grids) {
      write_binary_matrix(writer.data_file(panel.data), panel.field);
      commands += heatmap_commands(style);
    } else {
      write_column_blocks(writer.data_file(panel.data), {panel.points});
      commands += scatter_commands(style);
    }
  }
  commands += "unset multiplot\n";
  const std::string file = writer.draw("datasets", size_for(rows, columns), commands);
  if (!grids)
    return {file, "Data: the measurements",
            "Each panel is one experiment of " + name +
                ": its measured points at (x, t) coloured by u (at most " +
                std::to_string(kScatterPoints) +
                " of them, a random subset), all on one colour scale, each on its own window. "
                "The leaves were fitted to the training experiments; the held-out ones serve "
                "for the truth-free evaluation. Gaps in a window are where its leaf "
                "interpolates, and where its derivatives, the root's inputs, are least sure."};
  return {
      file, "Data: the simulated solutions",
      "Each panel is one simulated solution u(x, t) of " + name +
          " (x across, t upwards), all on one colour scale. The leaves were fitted to the "
          "training experiments, each measured at n_st random grid points only; the held-out "
          "experiments serve for evaluation. Look at the range of states the training data "
          "visit: the root can learn the operator only where these solutions go (next figure)."};
}

}  // namespace bhpm::report
