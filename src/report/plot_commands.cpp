#include "report/plot_commands.h"

#include <algorithm>
#include <cmath>

#include "report/figure_writer.h"
#include "report/gnuplot.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

/// Blue-white-red, for signed fields (u): 0 is white.
constexpr const char* kDivergingPalette =
    "set palette defined (0 '#3b4cc0', 0.25 '#8db0fe', 0.5 '#f7f7f7', 0.75 '#f49a7b', 1 "
    "'#b40426')\n";
/// Dark blue to yellow (viridis-like), for non-negative fields (standard deviations).
constexpr const char* kSequentialPalette =
    "set palette defined (0 '#440154', 0.25 '#3b528b', 0.5 '#21918c', 0.75 '#5ec962', 1 "
    "'#fde725')\n";

}  // namespace

std::string dimensionless(const std::string& name) { return name + " (dimensionless)"; }

ColourScale colour_scale_for(std::pair<double, double> range) {
  auto [low, high] = range;
  if (low < 0 && high > 0) {
    const double bound = std::max(-low, high);
    return {-bound, bound, true};
  }
  if (high - low <= 1e-12 * std::max(1.0, std::abs(high))) {
    const double pad = std::max(1e-12, 0.5 * std::abs(high));
    low -= pad;
    high += pad;
  }
  return {low, high, false};
}

namespace {

/// Title, axes and colour bar of a panel of u over (x, t): everything before its plot.
std::string field_panel_setup(const HeatmapPanel& panel) {
  return std::string("set title ") + gnuplot_string(panel.title) + "\n" + "set xlabel " +
         gnuplot_string(kXLabel) + "\n" + "set ylabel " + gnuplot_string(panel.vertical_label) +
         "\n" + "set cblabel " + gnuplot_string(panel.colour_label) + "\n" +
         range_command("cb", panel.scale.low, panel.scale.high) +
         (panel.scale.diverging ? kDivergingPalette : kSequentialPalette) +
         "set autoscale xfix\nset autoscale yfix\nset tics out\n" +
         "set lmargin 10\nset rmargin 15\n";  // room for the colour bar's ticks and label
}

}  // namespace

std::string heatmap_commands(const HeatmapPanel& panel) {
  return field_panel_setup(panel) + "plot " + FigureWriter::data_reference(panel.data) +
         " binary matrix with image notitle\n";
}

std::string scatter_commands(const HeatmapPanel& panel) {
  return field_panel_setup(panel) + "plot " + FigureWriter::data_reference(panel.data) +
         " using 1:2:3 with points pt 7 ps 0.35 lc palette notitle\n";
}

std::string multiplot_commands(int rows, int columns, const std::string& title) {
  return "set multiplot layout " + std::to_string(rows) + "," + std::to_string(columns) +
         " title " + gnuplot_wrapped_string(title, kTitleWidth) + " font 'Sans,13'\n";
}

int rows_for(int panels, int columns) { return (panels + columns - 1) / columns; }

std::vector<std::size_t> evenly_spaced_indices(std::size_t count, std::size_t k) {
  std::vector<std::size_t> indices;
  if (count == 0 || k == 0) return indices;
  if (k == 1 || count == 1) return {0};
  for (std::size_t i = 0; i < k; ++i) {
    const std::size_t index = static_cast<std::size_t>(std::lround(
        static_cast<double>(i) * static_cast<double>(count - 1) / static_cast<double>(k - 1)));
    if (indices.empty() || index != indices.back()) indices.push_back(index);
  }
  return indices;
}

std::string range_command(const std::string& axis, double low, double high) {
  return "set " + axis + "range [" + util::format_significant(low, 10) + ":" +
         util::format_significant(high, 10) + "]\n";
}

}  // namespace bhpm::report
