#include "config/root_config.h"

#include <algorithm>
#include <limits>

namespace bhpm::config {

void read_adam_steps(ConfigSection& section, model::AdamSchedule& s) {
  s.iterations = section.integer("iterations", s.iterations);
  s.learning_rate = section.number("learning_rate", s.learning_rate);
  s.final_learning_rate = section.number("final_learning_rate", s.final_learning_rate);
}

void read_schedule(ConfigSection& section, model::AdamSchedule& s) {
  read_adam_steps(section, s);
  s.checkpoint_every = section.integer("checkpoint_every", s.checkpoint_every);
}

void read_order_and_kernel(ConfigSection& root, model::RootOptions& r) {
  const std::int64_t order = root.integer("order", r.order);
  r.order = static_cast<int>(std::clamp<std::int64_t>(order, std::numeric_limits<int>::min(),
                                                      std::numeric_limits<int>::max()));
  r.kernel = root.string("kernel", r.kernel);
}

RootConfig read_root_config(ConfigReader& reader) {
  RootConfig config;
  ConfigSection root = reader.section("root");
  model::RootOptions& r = config.root;
  read_order_and_kernel(root, r);
  r.inducing_points = root.integer("inducing_points", r.inducing_points);
  r.train_inducing_inputs = root.boolean("train_inducing_inputs", r.train_inducing_inputs);
  r.kmeans_iterations = root.integer("kmeans_iterations", r.kmeans_iterations);
  r.input_noise = root.string("input_noise", r.input_noise);
  root.validate([&] { model::validate(r); });

  ConfigSection exact = reader.section("train_root");
  read_schedule(exact, config.exact_training);
  config.exact_training.points = exact.integer("points", config.exact_training.points);
  exact.validate([&] { model::validate(config.exact_training); });

  ConfigSection joint = reader.section("train_joint");
  read_schedule(joint, config.joint_training);
  config.joint_training.batch_size = joint.integer("batch_size", config.joint_training.batch_size);
  joint.validate([&] { model::validate(config.joint_training); });
  config.joint_training.optimal_root_posterior =
      joint.boolean("optimal_root_posterior", config.joint_training.optimal_root_posterior);
  return config;
}

}  // namespace bhpm::config
