#include "config/predict_config.h"

#include <cmath>

#include "solve/discrepancy_calibration.h"
#include "util/number_format.h"

namespace bhpm::config {

void read_algorithm1_keys(ConfigSection& section, solve::RefinementOptions& refinement) {
  refinement.new_points = section.integer_at_least("new_points", refinement.new_points, 1);
  refinement.monte_carlo_points =
      section.integer_at_least("monte_carlo_points", refinement.monte_carlo_points, 1);
  refinement.max_rounds = section.integer_at_least("max_rounds", refinement.max_rounds, 1);
  refinement.descent_steps = section.integer_at_least("descent_steps", refinement.descent_steps, 0);
}

const std::vector<std::string>& discrepancy_sources() {
  static const std::vector<std::string> sources = {"calibrated", "fixed", "none"};
  return sources;
}

const std::vector<std::string>& operator_sources() {
  static const std::vector<std::string> sources = {"gp", "distilled"};
  return sources;
}

const std::vector<std::string>& conservation_choices() {
  static const std::vector<std::string> choices = {"auto", "mean", "none"};
  return choices;
}

const std::vector<std::string>& calibration_method_choices() {
  static const std::vector<std::string> choices = [] {
    std::vector<std::string> all = {"auto"};
    const std::vector<std::string>& methods = solve::calibration_methods();
    all.insert(all.end(), methods.begin(), methods.end());
    return all;
  }();
  return choices;
}

void apply_time_steps(const PredictConfig& config, pde::SolveOptions& solve) {
  if (config.dt > 0.0) solve.stepper.dt = config.dt;
  solve.tolerance = config.step_tolerance;
}

PredictConfig read_predict_config(ConfigReader& reader) {
  PredictConfig config;
  ConfigSection section = reader.section("predict");
  solve::PredictorOptions& o = config.options;
  o.samples = section.integer_at_least("samples", o.samples, 1);
  config.operator_source = section.one_of("operator", config.operator_source, operator_sources());
  o.sampler = section.one_of("sampler", o.sampler, solve::sampler_names());
  o.solver = section.one_of("solver", o.solver, solve::solver_names());
  config.relative_tolerance =
      section.positive_number("relative_tolerance", config.relative_tolerance);
  o.refinement.max_rounds = kPredictMaxRounds;
  read_algorithm1_keys(section, o.refinement);
  o.refinement.time_budget = section.number("time_budget", o.refinement.time_budget);
  section.require(std::isfinite(o.refinement.time_budget) && o.refinement.time_budget >= 0.0,
                  "time_budget", "must be >= 0 seconds (0: no limit)",
                  util::format_significant(o.refinement.time_budget, 10));
  o.pathwise.features = section.integer_at_least("features", o.pathwise.features, 1);
  config.discrepancy = section.one_of("discrepancy", config.discrepancy, discrepancy_sources());
  o.discrepancy_variance = section.number("discrepancy_variance", o.discrepancy_variance);
  section.require(std::isfinite(o.discrepancy_variance) && o.discrepancy_variance >= 0.0,
                  "discrepancy_variance", "must be >= 0",
                  util::format_significant(o.discrepancy_variance, 10));
  o.discrepancy_timescale = section.number("discrepancy_timescale", o.discrepancy_timescale);
  section.require(std::isfinite(o.discrepancy_timescale) && o.discrepancy_timescale >= 0.0,
                  "discrepancy_timescale", "must be >= 0",
                  util::format_significant(o.discrepancy_timescale, 10));
  o.discrepancy_order = section.integer_at_least("discrepancy_order", o.discrepancy_order, 0);
  o.spread_inflation = section.number("spread_inflation", o.spread_inflation);
  section.require(std::isfinite(o.spread_inflation) && o.spread_inflation > 0.0, "spread_inflation",
                  "must be > 0", util::format_significant(o.spread_inflation, 10));
  section.require(o.spread_inflation == 1.0 || o.discrepancy_variance == 0.0, "spread_inflation",
                  "is the other form of the model discrepancy: give it or discrepancy_variance, "
                  "not both",
                  util::format_significant(o.spread_inflation, 10));
  if (config.discrepancy != "fixed") o.discrepancy_variance = 0.0, o.spread_inflation = 1.0;
  config.calibration_method =
      section.one_of("calibration_method", config.calibration_method, calibration_method_choices());
  config.calibration_samples =
      section.integer_at_least("calibration_samples", config.calibration_samples, 2);
  config.calibration_leave_one_out =
      section.boolean("calibration_leave_one_out", config.calibration_leave_one_out);
  config.calibration_transfer =
      section.boolean("calibration_transfer", config.calibration_transfer);
  o.max_amplification = section.number("max_amplification", o.max_amplification);
  section.require(std::isfinite(o.max_amplification) && o.max_amplification > 1.0,
                  "max_amplification", "must be > 1",
                  util::format_significant(o.max_amplification, 10));
  o.ill_posed = section.one_of("ill_posed", o.ill_posed, solve::ill_posed_treatments());
  config.conservation = section.one_of("conservation", config.conservation, conservation_choices());
  config.dt = section.number("dt", config.dt);
  section.require(std::isfinite(config.dt) && config.dt >= 0.0, "dt",
                  "must be >= 0 (0: the data's time step)",
                  util::format_significant(config.dt, 10));
  config.step_tolerance = section.number("step_tolerance", config.step_tolerance);
  section.require(std::isfinite(config.step_tolerance) && config.step_tolerance >= 0.0 &&
                      config.step_tolerance < 1.0,
                  "step_tolerance", "must be in [0, 1) (0: fixed steps of predict.dt)",
                  util::format_significant(config.step_tolerance, 10));
  o.pinn.iterations = section.integer_at_least("pinn_iterations", o.pinn.iterations, 1);
  o.pinn.collocation_points =
      section.integer_at_least("pinn_collocation_points", o.pinn.collocation_points, 1);
  o.pinn.boundary_points =
      section.integer_at_least("pinn_boundary_points", o.pinn.boundary_points, 1);
  o.pinn.initial_points = section.integer_at_least("pinn_initial_points", o.pinn.initial_points, 1);
  o.pinn.learning_rate = section.positive_number("pinn_learning_rate", o.pinn.learning_rate);
  o.pinn.final_learning_rate =
      section.positive_number("pinn_final_learning_rate", o.pinn.final_learning_rate);
  return config;
}

}  // namespace bhpm::config
