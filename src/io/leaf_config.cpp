#include "io/leaf_config.h"

#include <cmath>

namespace bhpm::io {

namespace {

std::int64_t integer_at_least(ConfigSection& section, const std::string& key,
                              std::int64_t fallback, std::int64_t minimum) {
  const std::int64_t value = section.integer(key, fallback);
  section.require(value >= minimum, key, "must be an integer >= " + std::to_string(minimum),
                  std::to_string(value));
  return value;
}

double positive(ConfigSection& section, const std::string& key, double fallback) {
  const double value = section.number(key, fallback);
  section.require(value > 0 && std::isfinite(value), key, "must be a positive number",
                  format_number(value));
  return value;
}

}  // namespace

LeafConfig read_leaf_config(ConfigReader& reader) {
  LeafConfig config;
  ConfigSection leaves = reader.section("leaves");
  nn::SineMlpOptions& net = config.model.network;
  net.hidden_layers = integer_at_least(leaves, "hidden_layers", net.hidden_layers, 1);
  net.width = integer_at_least(leaves, "width", net.width, 1);
  net.first_omega = positive(leaves, "first_omega", net.first_omega);
  net.hidden_omega = positive(leaves, "hidden_omega", net.hidden_omega);
  net.initialization = leaves.string("initialization", net.initialization);
  leaves.require(net.initialization == "siren" || net.initialization == "glorot",
                 "initialization", "must be \"siren\" or \"glorot\"",
                 "\"" + net.initialization + "\"");
  config.model.initial_noise = positive(leaves, "initial_noise", config.model.initial_noise);

  ConfigSection train = reader.section("train_leaves");
  model::LeafTrainingOptions& t = config.training;
  t.iterations = integer_at_least(train, "iterations", t.iterations, 0);
  t.learning_rate = positive(train, "learning_rate", t.learning_rate);
  t.final_learning_rate = train.number("final_learning_rate", t.final_learning_rate);
  train.require(t.final_learning_rate < 0 || (t.final_learning_rate > 0 &&
                                              std::isfinite(t.final_learning_rate)),
                "final_learning_rate", "must be positive, or negative for a constant rate",
                format_number(t.final_learning_rate));
  t.batch_size = integer_at_least(train, "batch_size", t.batch_size, 0);
  t.checkpoint_every = integer_at_least(train, "checkpoint_every", t.checkpoint_every, 1);
  return config;
}

}  // namespace bhpm::io
