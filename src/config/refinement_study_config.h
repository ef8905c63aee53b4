#pragma once
/// The [refinement_study] section: the paper's Fig. 3 study (solve/refinement_study.h) as
/// the `refinement` stage of `bhpm run`. Keys and defaults:
///   tolerances = [1e-2, 1e-3, 1e-4, 1e-5, 1e-6]   decreasing delta_c of the stages
///   samples = 4                                    operator samples (lines of Fig. 3b)
///   grid_points = 128                              output points in x and in t
///   t_end = 10.0, dt = 1e-2                        horizon and spectral time step
///   new_points = 8, monte_carlo_points = 1024, max_rounds = 200, descent_steps = 50
///                                                  Algorithm 1 (solve/operator_refinement.h)
/// The seed is the configuration's top-level `seed`.

#include <cstdint>

#include "config/config_reader.h"
#include "solve/refinement_study.h"

namespace bhpm::config {

/// Reads [refinement_study] with `seed` for every draw; throws ConfigError naming the
/// field and the rule (solve::validate's rules included).
solve::RefinementStudyOptions read_refinement_study_config(ConfigReader& reader,
                                                           std::uint64_t seed);

}  // namespace bhpm::config
