#include "report/root_inputs_figure.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include "report/gnuplot.h"
#include "report/input_file.h"
#include "report/plot_commands.h"
#include "report/plot_data.h"
#include "util/comma_list.h"

namespace bhpm::report {

namespace {

/// The names of the columns of v, from the `variables` attribute ("u,u_x,u_xx").
std::vector<std::string> variable_names(const io::Hdf5Location& file, std::size_t columns) {
  const std::vector<std::string> names = util::split_at_commas(file.string_attribute("variables"));
  if (names.size() != columns)
    throw std::runtime_error(file.describe() + ": attribute 'variables' names " +
                             std::to_string(names.size()) + " columns, root_inputs/v has " +
                             std::to_string(columns));
  return names;
}

/// Columns of rows [first, first + count) of a row-major [rows, width] array, every
/// `stride`-th row.
Columns strided_columns(const std::vector<double>& values, std::size_t width, std::size_t first,
                        std::size_t count, std::size_t stride) {
  Columns columns(width);
  for (std::size_t row = first; row < first + count; row += stride)
    for (std::size_t c = 0; c < width; ++c) columns[c].push_back(values[row * width + c]);
  return columns;
}

/// One scatter panel of column `b` against column `a`.
std::string scatter_panel(const std::vector<std::string>& names, std::size_t a, std::size_t b,
                          std::size_t experiments) {
  std::string commands = "set title " + gnuplot_string(names[b] + " against " + names[a]) + "\n" +
                         "set xlabel " + gnuplot_string(dimensionless(names[a])) + "\n" +
                         "set ylabel " + gnuplot_string(dimensionless(names[b])) + "\n" + "plot ";
  const std::string using_columns = " using " + std::to_string(a + 1) + ":" + std::to_string(b + 1);
  for (std::size_t e = 0; e < experiments; ++e)
    commands += FigureWriter::data_reference("root-inputs-" + std::to_string(e) + ".dat") +
                using_columns + " with points pt 7 ps 0.4 lc " + std::to_string(e + 1) +
                " title 'experiment " + std::to_string(e) + "', ";
  return commands + FigureWriter::data_reference("inducing-inputs.dat") + using_columns +
         " with points pt 2 ps 1.6 lw 2 lc rgb 'black' title 'inducing inputs'\n";
}

}  // namespace

Figure draw_root_inputs_figure(FigureWriter& writer, const std::string& root_path) {
  const io::Hdf5Location file = open_input(root_path, "bhpm-root");
  const auto v = read_array(file, "root_inputs/v", {0, 0, 0}, "experiment, point, variable");
  const std::size_t experiments = v.shape[0], points = v.shape[1], width = v.shape[2];
  const auto inducing =
      read_array(file, "gp/inducing_inputs", {0, width}, "inducing input, variable");
  if (experiments == 0 || points == 0)
    throw std::runtime_error(file.describe("root_inputs/v") + ": holds no root input");
  if (width < 2)
    throw std::runtime_error(file.describe("root_inputs/v") +
                             ": one variable; the figure needs u and u_x");
  const std::vector<std::string> names = variable_names(file, width);
  const std::size_t stride = (points + kRootInputsPerExperiment - 1) / kRootInputsPerExperiment;
  for (std::size_t e = 0; e < experiments; ++e)
    write_column_blocks(writer.data_file("root-inputs-" + std::to_string(e) + ".dat"),
                        {strided_columns(v.values, width, e * points, points, stride)});
  write_column_blocks(writer.data_file("inducing-inputs.dat"),
                      {strided_columns(inducing.values, width, 0, inducing.shape[0], 1)});
  const int panels = width >= 3 ? 2 : 1;
  std::string commands =
      multiplot_commands(1, panels,
                         "root.h5: root inputs v of each experiment and the inducing inputs Z") +
      "set key outside right top box\nset grid\n" + scatter_panel(names, 0, 1, experiments);
  if (panels == 2) commands += scatter_panel(names, 1, 2, experiments);
  commands += "unset multiplot\n";
  return {
      writer.draw("root-inputs", {panels == 2 ? 1400 : 1000, 620}, commands),
      "Where the data put the root's inputs (paper Fig. 1b)",
      "Each dot is a root input v = (" + file.string_attribute("variables") +
          ") computed by an experiment's leaf at one of its measurement points (at most " +
          std::to_string(kRootInputsPerExperiment) +
          " per experiment shown); black crosses are the sparse GP's inducing inputs. The learned "
          "operator is informed only near the dots: an initial condition whose solution leaves "
          "this cloud relies on extrapolated physics, which the operator std of the prediction "
          "figures shows."};
}

}  // namespace bhpm::report
