#include "report/refinement_figure.h"

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "report/gnuplot.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/number_format.h"

namespace bhpm::report {

namespace {

/// One line per sample: (tolerance, value[r, s]) for the stages r where the value is finite
/// and positive (drawable on a log axis). Samples without such a stage are left out.
struct SampleLines {
  std::vector<Columns> blocks;
  std::vector<std::size_t> samples;  ///< the sample of each block
};

SampleLines sample_lines(const std::vector<double>& tolerances, const std::vector<double>& values,
                         std::size_t samples) {
  SampleLines lines;
  for (std::size_t s = 0; s < samples; ++s) {
    Columns block(2);
    for (std::size_t r = 0; r < tolerances.size(); ++r) {
      const double value = values[r * samples + s];
      if (!std::isfinite(value) || value <= 0) continue;
      block[0].push_back(tolerances[r]);
      block[1].push_back(value);
    }
    if (block[0].empty()) continue;
    lines.blocks.push_back(std::move(block));
    lines.samples.push_back(s);
  }
  return lines;
}

/// The tolerance axis of both panels: log scale over every tolerance, padded by a factor
/// 1.5, decreasing to the right (the order in which Algorithm 1 reaches them).
std::string tolerance_axis(const std::vector<double>& tolerances) {
  const auto [low, high] = finite_range(tolerances);
  return "set logscale x\n" + range_command("x", 1.5 * high, low / 1.5);
}

/// A panel of the lines in `data` against the tolerance.
std::string lines_panel(const std::string& title, const std::string& y_label,
                        const std::string& data, const SampleLines& lines, bool log_y) {
  std::string commands = "set title " + gnuplot_string(title) + "\nset ylabel " +
                         gnuplot_string(y_label) + "\n" +
                         (log_y ? "set logscale y\n" : "unset logscale y\n") + "plot ";
  for (std::size_t b = 0; b < lines.blocks.size(); ++b)
    commands += std::string(b ? ", " : "") + FigureWriter::data_reference(data) + " index " +
                std::to_string(b) + " using 1:2 with linespoints pt 7 lw 2 lc " +
                std::to_string(lines.samples[b] + 1) + " title 'sample " +
                std::to_string(lines.samples[b]) + "'";
  return commands + "\n";
}

}  // namespace

Figure draw_refinement_figure(FigureWriter& writer, const std::string& study_path) {
  const io::Hdf5Location file = open_input(study_path, "bhpm-refinement-study");
  const auto tolerances = read_array(file, "tolerances", {0}, "stage").values;
  for (const double tolerance : tolerances)
    if (!(tolerance > 0))
      throw std::runtime_error(file.describe("tolerances") + ": holds " +
                               util::format_significant(tolerance, 6) + ", expected values > 0");
  const auto rmse = read_array(file, "relative_rmse", {tolerances.size(), 0}, "stage, sample");
  const auto points =
      read_array(file, "conditioning_points", {tolerances.size(), rmse.shape[1]}, "stage, sample");
  const std::size_t samples = rmse.shape[1];
  const SampleLines changes = sample_lines(tolerances, rmse.values, samples);
  const SampleLines sizes = sample_lines(tolerances, points.values, samples);
  if (sizes.blocks.empty())
    throw std::runtime_error(file.describe("conditioning_points") + ": no positive value");
  write_column_blocks(writer.data_file("refinement-conditioning-points.dat"), sizes.blocks);
  const std::string name = std::filesystem::path(study_path).filename().string();
  const int panels = changes.blocks.empty() ? 1 : 2;
  std::string commands =
      multiplot_commands(1, panels, name + ": solution samples as Algorithm 1's tolerance falls") +
      "set xlabel 'tolerance δ_c on L_c (dimensionless; decreasing to the right)'\n"
      "set grid\nset key top left box opaque\n" +
      tolerance_axis(tolerances);
  if (!changes.blocks.empty()) {
    write_column_blocks(writer.data_file("refinement-relative-rmse.dat"), changes.blocks);
    commands += lines_panel("relative RMSE of u between successive tolerances",
                            "|u_r - u_(r-1)| / |u_r| at stage r (dimensionless)",
                            "refinement-relative-rmse.dat", changes, true);
  }
  commands += lines_panel("conditioning points when the tolerance was reached", "n_c (count)",
                          "refinement-conditioning-points.dat", sizes, false) +
              "unset multiplot\n";
  return {
      writer.draw("refinement", {panels == 2 ? 1400 : 1000, 620}, commands),
      "Refinement study (paper Fig. 3b)",
      "Each line follows one operator sample as Algorithm 1 runs to smaller tolerances delta_c. "
      "Left: the relative RMSE between its solutions at successive tolerances (undefined at the "
      "first); a line that falls steadily means the sampled solution converges as the operator "
      "sample is refined. Right: the conditioning points n_c needed, which grow as delta_c falls."};
}

}  // namespace bhpm::report
