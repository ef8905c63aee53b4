#pragma once
/// The refinement study's file (`bhpm refinement-study -o refinement.h5`, format
/// "bhpm-refinement-study" version 1; report/refinement_figure.h draws it): the attributes
/// of the synthetic problem and the settings, then per stage r (tolerance delta_c) and
/// sample s the solution u [R, S, T, X] when the stage stopped, the relative RMSE
/// |u_r - u_(r-1)| / |u_r| [R, S], n_c [R, S], the steps taken and rejected [R], the last
/// L_c [R, S] and each sample's final conditioning inputs V_c (group conditioning_inputs).

#include <string>

#include "solve/refinement_study.h"

namespace bhpm::solve {

/// Writes `study`, run with `options`, to `path` atomically (nothing at `path` on failure);
/// `config` (the TOML it was run from, "" for none) is stored as the attribute "config".
void write_refinement_study(const std::string& path, const RefinementStudy& study,
                            const RefinementStudyOptions& options, const std::string& config);

}  // namespace bhpm::solve
