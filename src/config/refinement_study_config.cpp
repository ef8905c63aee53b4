#include "config/refinement_study_config.h"

#include "config/predict_config.h"

namespace bhpm::config {

solve::RefinementStudyOptions read_refinement_study_config(ConfigReader& reader,
                                                           std::uint64_t seed) {
  solve::RefinementStudyOptions o;
  ConfigSection section = reader.section("refinement_study");
  // Read only: solve::validate owns these keys' rules.
  o.tolerances = section.numbers("tolerances", o.tolerances);
  o.samples = section.integer("samples", o.samples);
  o.grid_points = section.integer("grid_points", o.grid_points);
  o.t_end = section.number("t_end", o.t_end);
  o.dt = section.number("dt", o.dt);
  o.solver_tolerance = section.number("solver_tolerance", o.solver_tolerance);
  read_algorithm1_keys(section, o.refinement);
  o.refinement.seed = seed;
  section.validate([&] { solve::validate(o); }, {{"refinement.", ""}});
  return o;
}

}  // namespace bhpm::config
