#pragma once
/// root-inputs.png (the paper's Fig. 1b, "experiment coverage"): the root inputs
/// v = (u, u_x, ..., d^K u/dx^K) that each leaf produced at its measurement points,
/// scattered in the (u, u_x) plane and, for K >= 2, the (u_x, u_xx) plane, coloured by
/// experiment, with the sparse GP's inducing inputs Z overlaid as black crosses. It shows
/// where in v-space the data inform the learned operator; away from these points the
/// posterior falls back on its prior.

#include <string>

#include "report/figure_writer.h"

namespace bhpm::report {

/// At most this many root inputs per experiment are plotted (evenly strided), which keeps
/// the PNG and its data small.
inline constexpr std::size_t kRootInputsPerExperiment = 4000;

/// Draws root-inputs.png from RUN_DIR/root.h5 (format bhpm-root, docs/run-folder.md).
Figure draw_root_inputs_figure(FigureWriter& writer, const std::string& root_path);

}  // namespace bhpm::report
