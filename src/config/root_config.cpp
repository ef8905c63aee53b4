#include "config/root_config.h"

#include <cmath>

#include "gp/kernel_table.h"
#include "nn/taylor_forward.h"
#include "util/number_format.h"

namespace bhpm::config {

void read_schedule(ConfigSection& section, model::AdamSchedule& s) {
  s.iterations = section.integer_at_least("iterations", s.iterations, 0);
  s.learning_rate = section.positive_number("learning_rate", s.learning_rate);
  s.final_learning_rate = section.number("final_learning_rate", s.final_learning_rate);
  section.require(s.final_learning_rate < 0 ||
                      (s.final_learning_rate > 0 && std::isfinite(s.final_learning_rate)),
                  "final_learning_rate", "must be positive, or negative for a constant rate",
                  util::format_significant(s.final_learning_rate, 10));
  s.checkpoint_every = section.integer_at_least("checkpoint_every", s.checkpoint_every, 1);
}

RootConfig read_root_config(ConfigReader& reader) {
  RootConfig config;
  ConfigSection root = reader.section("root");
  model::RootOptions& r = config.root;
  r.order = static_cast<int>(root.integer_at_least("order", r.order, 0));
  root.require(r.order <= nn::kMaxOrder, "order",
               "must be at most " + std::to_string(nn::kMaxOrder), std::to_string(r.order));
  r.inducing_points = root.integer_at_least("inducing_points", r.inducing_points, 1);
  r.train_inducing_inputs = root.boolean("train_inducing_inputs", r.train_inducing_inputs);
  r.kmeans_iterations = root.integer_at_least("kmeans_iterations", r.kmeans_iterations, 0);
  r.kernel = root.one_of("kernel", r.kernel, gp::kernel_names());
  r.input_noise = root.one_of("input_noise", r.input_noise, model::input_noise_names());

  ConfigSection exact = reader.section("train_root");
  read_schedule(exact, config.exact_training);
  config.exact_training.points = exact.integer_at_least("points", config.exact_training.points, 1);

  ConfigSection joint = reader.section("train_joint");
  read_schedule(joint, config.joint_training);
  config.joint_training.batch_size =
      joint.integer_at_least("batch_size", config.joint_training.batch_size, 0);
  config.joint_training.optimal_root_posterior =
      joint.boolean("optimal_root_posterior", config.joint_training.optimal_root_posterior);
  return config;
}

}  // namespace bhpm::config
