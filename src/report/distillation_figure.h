#pragma once
/// distill.png: the distilled equation of `bhpm distill` (docs/distillation.md, "Distilled
/// equations"). Left: the inclusion probability of every term some sample kept (and of every
/// true term, when the truth is known), against the 1/2 line that decides which terms the
/// printed equation keeps. Right: each kept term's 95 % interval as a deviation from its
/// median, (coefficient - median) / |median| in %, so terms of any size share one axis,
/// with the truth marked the same way where it is known.

#include <string>

#include "eval/distillation_file.h"
#include "report/figure_writer.h"

namespace bhpm::report {

/// Draws the figure of the distill.json at `path`; throws std::runtime_error naming the
/// file for a file that cannot be read (eval/distillation_file.h).
Figure draw_distillation_figure(FigureWriter& writer, const std::string& path);

/// The same figure of one distillation (a field system's field), drawn as `name`.png with
/// its data files named from `name`, under `title`.
Figure draw_distillation_figure(FigureWriter& writer, const eval::DistillationFile& file,
                                const std::string& name, const std::string& title);

}  // namespace bhpm::report
