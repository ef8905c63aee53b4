#pragma once
/// gnuplot command text shared by the figures: axis labels, colour scales, heatmap panels
/// and multiplot layouts. Every figure labels its axes with the variable and its units;
/// x, t and u are nondimensional in BHPM's files, and the labels say so.

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace bhpm::report {

inline constexpr const char* kXLabel = "x (dimensionless)";
inline constexpr const char* kTLabel = "t (dimensionless)";

/// "NAME (dimensionless)" for a variable of the root inputs, e.g. "u_xx (dimensionless)".
std::string dimensionless(const std::string& name);

/// A colour bar: the values it spans and how they are coloured.
struct ColourScale {
  double low = 0;
  double high = 1;
  bool diverging = false;  ///< blue-white-red centred on 0, for values of both signs
};

/// The scale for fields with values in `range` (finite): a diverging scale symmetric about
/// 0 when the values take both signs, else a sequential one over [low, high]; a degenerate
/// range is widened so that gnuplot can draw it.
ColourScale colour_scale_for(std::pair<double, double> range);

inline constexpr const char* kYLabel = "y (dimensionless)";

/// One heatmap of a binary-matrix data file (plot_data.h) over x (horizontal) and t
/// (vertical; or `vertical_label`'s variable, y for a 2-D field), with its own colour bar.
struct HeatmapPanel {
  std::string title;
  std::string data;          ///< data file name under data/
  std::string colour_label;  ///< colour bar label: the quantity and its units
  ColourScale scale;
  std::string vertical_label = kTLabel;
};
std::string heatmap_commands(const HeatmapPanel& panel);

/// The same panel for scattered measurements: a text data file of columns x, t, u
/// (plot_data.h's write_column_blocks), each point coloured by u.
std::string scatter_commands(const HeatmapPanel& panel);

/// Characters per line of a figure's overall title (wider titles wrap).
inline constexpr std::size_t kTitleWidth = 110;

/// `set multiplot layout ROWS,COLUMNS` with an overall title, wrapped at kTitleWidth; close
/// with "unset multiplot".
std::string multiplot_commands(int rows, int columns, const std::string& title);

/// Panels of a grid: enough rows for `panels` at `columns` per row.
int rows_for(int panels, int columns);

/// Evenly spread indices 0 = i_0 < ... < i_{k-1} = count - 1 (fewer when count < k).
std::vector<std::size_t> evenly_spaced_indices(std::size_t count, std::size_t k);

/// "set AXISrange [LOW:HIGH]" with numbers that read back to 10 digits, e.g. axis "cb".
std::string range_command(const std::string& axis, double low, double high);

}  // namespace bhpm::report
