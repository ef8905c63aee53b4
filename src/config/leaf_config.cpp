#include "config/leaf_config.h"

#include "config/root_config.h"
#include "model/leaf_model.h"
#include "model/leaf_training.h"
#include "nn/sine_mlp.h"

namespace bhpm::config {

model::LeafModelOptions read_leaf_model(ConfigReader& reader) {
  model::LeafModelOptions options;
  ConfigSection leaves = reader.section("leaves");
  nn::SineMlpOptions& net = options.network;
  net.hidden_layers = leaves.integer("hidden_layers", net.hidden_layers);
  net.width = leaves.integer("width", net.width);
  net.first_omega = leaves.number("first_omega", net.first_omega);
  net.hidden_omega = leaves.number("hidden_omega", net.hidden_omega);
  net.initialization = leaves.string("initialization", net.initialization);
  net.precision = leaves.string("precision", net.precision);
  options.initial_noise = leaves.number("initial_noise", options.initial_noise);
  leaves.validate([&] { model::validate(options); });
  return options;
}

LeafConfig read_leaf_config(ConfigReader& reader) {
  LeafConfig config;
  config.model = read_leaf_model(reader);

  ConfigSection train = reader.section("train_leaves");
  model::LeafTrainingOptions& t = config.training;
  read_schedule(train, t);
  t.batch_size = train.integer("batch_size", t.batch_size);
  t.validation_every_nth_point =
      train.integer("validation_every_nth_point", t.validation_every_nth_point);
  t.validation_interval = train.integer("validation_interval", t.validation_interval);
  train.validate([&] { model::validate(t); });
  return config;
}

}  // namespace bhpm::config
