#include "io/refinement_study_config.h"

#include <stdexcept>

namespace bhpm::io {

solve::RefinementStudyOptions read_refinement_study_config(ConfigReader& reader,
                                                           std::uint64_t seed) {
  solve::RefinementStudyOptions o;
  ConfigSection section = reader.section("refinement_study");
  o.tolerances = section.numbers("tolerances", o.tolerances);
  o.samples = section.integer_at_least("samples", o.samples, 1);
  o.grid_points = section.integer_at_least("grid_points", o.grid_points, 4);
  o.t_end = section.positive_number("t_end", o.t_end);
  o.dt = section.positive_number("dt", o.dt);
  o.refinement.new_points = section.integer_at_least("new_points", o.refinement.new_points, 1);
  o.refinement.monte_carlo_points =
      section.integer_at_least("monte_carlo_points", o.refinement.monte_carlo_points, 1);
  o.refinement.max_rounds = section.integer_at_least("max_rounds", o.refinement.max_rounds, 1);
  o.refinement.descent_steps =
      section.integer_at_least("descent_steps", o.refinement.descent_steps, 0);
  o.refinement.seed = seed;
  try {
    solve::validate(o);
  } catch (const std::invalid_argument& error) {
    throw ConfigError(section.prefix() + ": " + error.what());
  }
  return o;
}

}  // namespace bhpm::io
