#include "report/dataset_figure.h"

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"

namespace bhpm::report {

namespace {

constexpr std::size_t kHeldOutPanels = 2;

struct ExperimentPanel {
  std::string title;
  std::string data;  ///< data file name
  GridField field;
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
    panels.push_back({label + " experiment " + std::to_string(e),
                      "datasets-" + set + "-" + std::to_string(e) + ".bin",
                      {x.values, t.values,
                       std::vector<double>(first, first + static_cast<std::ptrdiff_t>(size))}});
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
    const auto [low, high] = finite_range(panel.field.values);
    bounds.insert(bounds.end(), {low, high});
  }
  return finite_range(bounds);
}

}  // namespace

Figure draw_dataset_figure(FigureWriter& writer, const std::string& data_path) {
  const io::Hdf5Location file = open_input(data_path, "bhpm-dataset");
  std::vector<ExperimentPanel> panels = set_panels(file, "train", SIZE_MAX, "training");
  if (panels.empty()) throw std::runtime_error(file.describe("train/u") + ": holds no experiment");
  if (file.has("test")) {
    auto held_out = set_panels(file, "test", kHeldOutPanels, "held-out (test)");
    panels.insert(panels.end(), held_out.begin(), held_out.end());
  }
  const ColourScale scale = colour_scale_for(shared_range(panels));
  const int columns = columns_for(static_cast<int>(panels.size()));
  const int rows = rows_for(static_cast<int>(panels.size()), columns);
  const std::string name = std::filesystem::path(data_path).filename().string();
  std::string commands = multiplot_commands(
      rows, columns, name + ": u(x, t) of the training experiments and the first held-out ones");
  for (const auto& panel : panels) {
    write_binary_matrix(writer.data_file(panel.data), panel.field);
    commands += heatmap_commands({panel.title, panel.data, "u (dimensionless)", scale});
  }
  commands += "unset multiplot\n";
  return {
      writer.draw("datasets", size_for(rows, columns), commands), "Data: the simulated solutions",
      "Each panel is one simulated solution u(x, t) of " + name +
          " (x across, t upwards), all on one colour scale. The leaves were fitted to the "
          "training experiments, each measured at n_st random grid points only; the held-out "
          "experiments serve for evaluation. Look at the range of states the training data "
          "visit: the root can learn the operator only where these solutions go (next figure)."};
}

}  // namespace bhpm::report
