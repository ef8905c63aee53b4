#include "config/system_learning_config.h"

#include <string>

#include "config/distill_config.h"
#include "config/leaf_config.h"
#include "config/predict_config.h"
#include "config/root_config.h"
#include "model/root_gp.h"

namespace bhpm::config {

namespace {

void read_roots(ConfigReader& reader, SystemLearningConfig& config) {
  ConfigSection root = reader.section("root");
  model::RootOptions options;  // its validate() holds the rules of order and kernel
  read_order_and_kernel(root, options);
  root.validate([&] { model::validate(options); });
  config.order = options.order;
  config.kernel = options.kernel;

  ConfigSection train = reader.section("train_root");
  model::ExactRootTrainingOptions& t = config.root_training;
  read_adam_steps(train, t);
  t.points = train.integer("points", t.points);
  train.validate([&] { model::validate(t); });
  config.condition_points = train.integer("condition_points", config.condition_points);
  train.require(config.condition_points >= t.points, "condition_points",
                "must be an integer >= train_root.points", std::to_string(config.condition_points));
}

}  // namespace

SystemLearningConfig read_system_learning_config(ConfigReader& reader, int dimensions) {
  SystemLearningConfig config;
  if (dimensions == 2) {  // n^2 T points per leaf: 64 x 64 x 32 by default
    config.distill.weak_x_points = kPlaneWeakGrid[0];
    config.distill.weak_t_points = kPlaneWeakGrid[1];
  }
  config.leaves = read_leaf_model(reader);
  ConfigSection train = reader.section("train_leaves");
  model::SystemLeafTrainingOptions& t = config.leaf_training;
  read_adam_steps(train, t);
  t.batch_size = train.integer("batch_size", t.batch_size);
  train.validate([&] { model::validate(t); });
  read_roots(reader, config);
  ConfigSection distill = reader.section("distill");
  read_equation_fit(distill, config.distill);
  config.distill.max_points = distill.integer_at_least("max_points", 0, 0);
  read_weak_form(distill, config.distill);
  distill.require(config.distill.samples >= 2, "samples", "must be an integer >= 2",
                  std::to_string(config.distill.samples));
  ConfigSection predict = reader.section("predict");
  config.predict.samples = predict.integer_at_least("samples", config.predict.samples, 1);
  config.predict.features = predict.integer_at_least("features", config.predict.features, 1);
  config.predict.step_tolerance = predict.number("step_tolerance", config.predict.step_tolerance);
  predict.require(config.predict.step_tolerance >= 0.0 && config.predict.step_tolerance < 1.0,
                  "step_tolerance", "must be in [0, 1) (0: fixed steps of solver.dt)",
                  std::to_string(config.predict.step_tolerance));
  config.predict.max_amplification =
      predict.number("max_amplification", config.predict.max_amplification);
  predict.require(config.predict.max_amplification > 1.0, "max_amplification", "must be > 1",
                  std::to_string(config.predict.max_amplification));
  config.predict.operator_source =
      predict.one_of("operator", config.predict.operator_source, operator_sources());
  return config;
}

}  // namespace bhpm::config
