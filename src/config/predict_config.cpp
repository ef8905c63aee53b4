#include "config/predict_config.h"

#include "solve/discrepancy_calibration.h"
#include "util/option_check.h"

namespace bhpm::config {

void read_algorithm1_keys(ConfigSection& section, solve::RefinementOptions& refinement) {
  refinement.new_points = section.integer("new_points", refinement.new_points);
  refinement.monte_carlo_points =
      section.integer("monte_carlo_points", refinement.monte_carlo_points);
  refinement.max_rounds = section.integer("max_rounds", refinement.max_rounds);
  refinement.descent_steps = section.integer("descent_steps", refinement.descent_steps);
}

const std::vector<std::string>& discrepancy_sources() {
  static const std::vector<std::string> sources = {"calibrated", "fixed", "none"};
  return sources;
}

const std::vector<std::string>& operator_sources() {
  static const std::vector<std::string> sources = {"gp", "distilled", "weak-form"};
  return sources;
}

const std::vector<std::string>& equation_term_sources() {
  static const std::vector<std::string> sources = {"root", "weak-form"};
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
  solve.max_interval_steps = config.max_interval_steps;
}

namespace {

/// The keys of solve::PredictorOptions; solve::validate owns their rules.
void read_predictor_options(ConfigSection& section, solve::PredictorOptions& o) {
  o.samples = section.integer("samples", o.samples);
  o.sampler = section.string("sampler", o.sampler);
  o.solver = section.string("solver", o.solver);
  o.refinement.max_rounds = kPredictMaxRounds;
  read_algorithm1_keys(section, o.refinement);
  o.refinement.time_budget = section.number("time_budget", o.refinement.time_budget);
  o.pathwise.features = section.integer("features", o.pathwise.features);
  o.discrepancy_variance = section.number("discrepancy_variance", o.discrepancy_variance);
  o.discrepancy_timescale = section.number("discrepancy_timescale", o.discrepancy_timescale);
  o.discrepancy_order = section.integer("discrepancy_order", o.discrepancy_order);
  o.spread_inflation = section.number("spread_inflation", o.spread_inflation);
  o.max_amplification = section.number("max_amplification", o.max_amplification);
  o.ill_posed = section.string("ill_posed", o.ill_posed);
  o.pinn.iterations = section.integer("pinn_iterations", o.pinn.iterations);
  o.pinn.collocation_points = section.integer("pinn_collocation_points", o.pinn.collocation_points);
  o.pinn.boundary_points = section.integer("pinn_boundary_points", o.pinn.boundary_points);
  o.pinn.initial_points = section.integer("pinn_initial_points", o.pinn.initial_points);
  o.pinn.learning_rate = section.number("pinn_learning_rate", o.pinn.learning_rate);
  o.pinn.final_learning_rate =
      section.number("pinn_final_learning_rate", o.pinn.final_learning_rate);
  section.validate([&] { solve::validate(o); },
                   {{"refinement.", ""}, {"pathwise.", ""}, {"pinn.", "pinn_"}});
}

}  // namespace

PredictConfig read_predict_config(ConfigReader& reader) {
  PredictConfig config;
  ConfigSection section = reader.section("predict");
  solve::PredictorOptions& o = config.options;
  read_predictor_options(section, o);
  config.operator_source = section.one_of("operator", config.operator_source, operator_sources());
  config.relative_tolerance =
      section.positive_number("relative_tolerance", config.relative_tolerance);
  config.discrepancy = section.one_of("discrepancy", config.discrepancy, discrepancy_sources());
  if (config.discrepancy != "fixed") o.discrepancy_variance = 0.0, o.spread_inflation = 1.0;
  config.calibration_method =
      section.one_of("calibration_method", config.calibration_method, calibration_method_choices());
  config.calibration_samples =
      section.integer_at_least("calibration_samples", config.calibration_samples, 2);
  config.calibration_leave_one_out =
      section.boolean("calibration_leave_one_out", config.calibration_leave_one_out);
  config.calibration_transfer =
      section.boolean("calibration_transfer", config.calibration_transfer);
  config.conservation = section.one_of("conservation", config.conservation, conservation_choices());
  config.equation_terms =
      section.one_of("equation_terms", config.equation_terms, equation_term_sources());
  config.dt = section.number("dt", config.dt);
  section.validate(
      [&] { util::require_non_negative(config.dt, "predict", "dt", "(0: the data's time step)"); });
  config.step_tolerance = section.number("step_tolerance", config.step_tolerance);
  section.validate([&] {
    util::require_unit_interval(config.step_tolerance, "predict", "step_tolerance",
                                "(0: fixed steps of predict.dt)");
  });
  config.max_interval_steps = section.integer("max_interval_steps", config.max_interval_steps);
  section.validate([&] {
    util::require_non_negative(static_cast<double>(config.max_interval_steps), "predict",
                               "max_interval_steps", "(0: no bound)");
  });
  return config;
}

}  // namespace bhpm::config
