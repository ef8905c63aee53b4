#include "config/leaf_config.h"

#include "config/root_config.h"
#include "nn/sine_mlp.h"

namespace bhpm::config {

LeafConfig read_leaf_config(ConfigReader& reader) {
  LeafConfig config;
  ConfigSection leaves = reader.section("leaves");
  nn::SineMlpOptions& net = config.model.network;
  net.hidden_layers = leaves.integer_at_least("hidden_layers", net.hidden_layers, 1);
  net.width = leaves.integer_at_least("width", net.width, 1);
  net.first_omega = leaves.positive_number("first_omega", net.first_omega);
  net.hidden_omega = leaves.positive_number("hidden_omega", net.hidden_omega);
  net.initialization =
      leaves.one_of("initialization", net.initialization, nn::initialization_names());
  config.model.initial_noise = leaves.positive_number("initial_noise", config.model.initial_noise);

  ConfigSection train = reader.section("train_leaves");
  model::LeafTrainingOptions& t = config.training;
  read_schedule(train, t);
  t.batch_size = train.integer_at_least("batch_size", t.batch_size, 0);
  t.validation_every_nth_point =
      train.integer_at_least("validation_every_nth_point", t.validation_every_nth_point, 0);
  train.require(t.validation_every_nth_point != 1, "validation_every_nth_point",
                "must be 0 (no early stopping) or >= 2 (1 would keep every point back)", "1");
  t.validation_interval = train.integer_at_least("validation_interval", t.validation_interval, 1);
  return config;
}

}  // namespace bhpm::config
