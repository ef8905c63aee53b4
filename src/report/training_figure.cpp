#include "report/training_figure.h"

#include <algorithm>
#include <stdexcept>

#include "io/csv_reader.h"
#include "report/gnuplot.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"

namespace bhpm::report {

namespace {

/// The columns a panel plots: iteration, objective, then the noise scales and the
/// residuals on kept-back points (early stopping, model/leaf_early_stopping.h).
struct PhaseCurve {
  std::vector<std::string> scale_names;  ///< sigma... and validation_rmse... columns
  Columns columns;                       ///< [iteration, objective, scales...][row]
};

bool is_kept_back_residual(const std::string& name) {
  return name.rfind("validation_rmse", 0) == 0;
}

/// Plotted on the right axis: residual scales, each leaf's fitted sigma and RMS residual on
/// its kept-back points, the root's sigma_f.
bool is_noise_scale(const std::string& name) {
  return name.rfind("sigma", 0) == 0 || is_kept_back_residual(name);
}

PhaseCurve read_curve(const std::string& path) {
  io::CsvReader csv(path);
  std::vector<std::size_t> positions = {csv.column("iteration"), csv.column("objective")};
  PhaseCurve curve;
  for (std::size_t c = 0; c < csv.header().size(); ++c)
    if (is_noise_scale(csv.header()[c])) {
      curve.scale_names.push_back(csv.header()[c]);
      positions.push_back(c);
    }
  curve.columns.resize(positions.size());
  while (csv.next())
    for (std::size_t k = 0; k < positions.size(); ++k)
      curve.columns[k].push_back(csv.number(positions[k]));
  if (curve.columns[0].empty())
    throw std::invalid_argument(path + ": holds no iteration (a header line only)");
  return curve;
}

std::string panel_commands(const TrainingCurve& curve, const PhaseCurve& data,
                           const std::string& data_name) {
  const std::string file = FigureWriter::data_reference(data_name);
  std::string commands = "set title " + gnuplot_string("phase " + curve.phase) + "\n" +
                         "set xlabel 'iteration'\nset ylabel 'objective'\n";
  commands += data.scale_names.empty()
                  ? "unset y2tics\nunset y2label\n"
                  : "set y2tics\nset logscale y2\nset y2label 'noise scale (log)'\n";
  commands += "plot " + file + " using 1:2 with lines lw 2 lc rgb 'black' title 'objective'";
  // Leaf i's kept-back residual (after every sigma column) dashed, in sigma[i]'s colour.
  const std::size_t sigmas = static_cast<std::size_t>(
      std::count_if(data.scale_names.begin(), data.scale_names.end(),
                    [](const std::string& name) { return !is_kept_back_residual(name); }));
  for (std::size_t s = 0; s < data.scale_names.size(); ++s) {
    const bool kept_back = is_kept_back_residual(data.scale_names[s]);
    commands +=
        ", " + file + " using 1:" + std::to_string(s + 3) + " axes x1y2 with lines " +
        (kept_back ? "dt 2 lc " + std::to_string(s - sigmas + 1) : "lc " + std::to_string(s + 1)) +
        " title " + gnuplot_string(data.scale_names[s]);
  }
  return commands + "\nunset logscale y2\n";
}

}  // namespace

Figure draw_training_figure(FigureWriter& writer, const std::vector<TrainingCurve>& curves) {
  if (curves.empty()) throw std::invalid_argument("training.png: no history file to draw");
  const int columns = static_cast<int>(curves.size());
  std::string commands =
      multiplot_commands(1, columns, "Training curves") + "set key top right font ',9'\nset grid\n";
  for (const TrainingCurve& curve : curves) {
    const std::string data_name = "training-" + curve.phase + ".dat";
    const PhaseCurve data = read_curve(curve.path);
    write_column_blocks(writer.data_file(data_name), {data.columns});
    commands += panel_commands(curve, data, data_name);
  }
  commands += "unset multiplot\n";
  return {writer.draw("training", {std::max(600, 520 * columns), 480}, commands), "Training curves",
          "Each panel is one training phase (paper appendix B): its objective against the "
          "iteration in black (leaves: the negative log likelihood of their measurements, "
          "summed over the leaves; exact_gp: the root's negative log marginal likelihood per "
          "root input; joint: the leaves' negative log likelihood minus the root's ELBO, per "
          "point) and, on the logarithmic "
          "right axis, its noise scales (each leaf's sigma[i], the root's sigma_f) and, with the "
          "leaves' early stopping, dashed, each leaf's RMS residual on the measurements kept "
          "back from its fit (validation_rmse[i]). A curve still falling at the end asks for "
          "more iterations; a leaf's sigma settling far above the measurements' noise says that "
          "leaf does not fit its data; a kept-back residual rising while sigma falls says it "
          "fits their noise."};
}

}  // namespace bhpm::report
