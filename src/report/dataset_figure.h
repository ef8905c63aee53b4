#pragma once
/// datasets.png (in the style of the paper's Fig. 5, the data of each experiment): u(x, t)
/// heatmaps, x horizontal and t vertical, of every training experiment of the dataset and
/// of its first two held-out (test) experiments, one panel each on one shared colour scale.
/// For a dataset of measurements only (version 2, `bhpm import`) each panel is a scatter
/// plot of the experiment's points at (x, t), coloured by the measured u, on its window.

#include <string>

#include "report/figure_writer.h"

namespace bhpm::report {

/// Draws datasets.png from a dataset file of either version (format bhpm-dataset,
/// docs/dataset-format.md).
Figure draw_dataset_figure(FigureWriter& writer, const std::string& data_path);

}  // namespace bhpm::report
