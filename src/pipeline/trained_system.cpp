#include "pipeline/trained_system.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>

#include "io/checkpoint.h"
#include "model/module_checkpoint.h"
#include "model/root_data.h"
#include "model/root_gp.h"
#include "nn/taylor_forward.h"
#include "pde/measured_system_file.h"
#include "pde/system_dataset_file.h"
#include "util/random.h"
#include "util/stopwatch.h"

namespace bhpm::pipeline {

namespace {

/// Per experiment, the first `points` of the set's [E, n_st] values: [experiments, points].
at::Tensor first_points(const std::vector<double>& values, std::int64_t n_st,
                        std::int64_t experiments, std::int64_t points) {
  return at::tensor(values, at::kDouble)
      .view({-1, n_st})
      .slice(0, 0, experiments)
      .slice(1, 0, points)
      .contiguous();
}

/// The network of `config` for `leaves` leaves of the system.
nn::SineMlpOptions network_of(const config::SystemConfig& config, std::int64_t leaves) {
  nn::SineMlpOptions network = config.learning.leaves.network;
  network.leaves = leaves;
  network.space_dimensions = config.system.dimensions;
  network.outputs = config.system.size();
  network.seed = util::derive_seed(config.sets.seed, "system_leaves", 0);
  return network;
}

at::Tensor boxes_tensor(const std::vector<nn::DomainBox>& boxes) {
  std::vector<double> values;
  for (const nn::DomainBox& b : boxes)
    values.insert(values.end(), {b.x_min, b.x_max, b.y_min, b.y_max, b.t_min, b.t_max});
  return at::tensor(values, at::kDouble).view({-1, 6});
}

std::vector<nn::DomainBox> boxes_from(const at::Tensor& table) {
  std::vector<nn::DomainBox> boxes;
  for (std::int64_t i = 0; i < table.size(0); ++i) {
    const auto v = [&](std::int64_t j) { return table[i][j].item<double>(); };
    nn::DomainBox box;
    box.x_min = v(0), box.x_max = v(1), box.y_min = v(2), box.y_max = v(3);
    box.t_min = v(4), box.t_max = v(5);
    boxes.push_back(box);
  }
  return boxes;
}

std::string root_prefix(std::size_t field) { return "root" + std::to_string(field) + "."; }

}  // namespace

model::SystemLeafData system_leaf_data(const pde::SystemExperimentSet& set,
                                       const pde::PeriodicBox& box, std::int64_t experiments,
                                       std::int64_t points, const std::string& source) {
  const std::int64_t e = experiments > 0 ? experiments : set.experiments;
  const std::int64_t p = points > 0 ? points : set.n_st;
  if (e > set.experiments || p > set.n_st)
    throw std::invalid_argument(source + ": holds " + std::to_string(set.experiments) +
                                " experiments of " + std::to_string(set.n_st) +
                                " measurements each; " + std::to_string(e) + " experiments of " +
                                std::to_string(p) + " were asked for");
  const std::int64_t q =
      static_cast<std::int64_t>(set.sample_u.size()) / (set.experiments * set.n_st);
  model::SystemLeafData data;
  data.x = first_points(set.sample_x, set.n_st, e, p);
  data.t = first_points(set.sample_t, set.n_st, e, p);
  if (box.dimensions() == 2) data.y = first_points(set.sample_y, set.n_st, e, p);
  data.u = at::tensor(set.sample_u, at::kDouble)
               .view({set.experiments, q, set.n_st})
               .slice(0, 0, e)
               .slice(2, 0, p)
               .permute({0, 2, 1})
               .contiguous();
  data.boxes.assign(static_cast<std::size_t>(e),
                    nn::DomainBox{box.x_min(), box.x_max(), set.t.front(), set.t.back(),
                                  box.y_min(), box.y_max()});
  return data;
}

model::SystemLeafData measured_system_leaf_data(const pde::MeasuredSystemSet& set,
                                                std::int64_t experiments, std::int64_t points,
                                                const std::string& source) {
  const auto all = static_cast<std::int64_t>(set.experiments.size());
  const std::int64_t e = experiments > 0 ? experiments : all;
  std::int64_t fewest = set.experiments.front().points();
  for (std::int64_t i = 0; i < std::min(e, all); ++i)
    fewest = std::min(fewest, set.experiments[static_cast<std::size_t>(i)].points());
  const std::int64_t p = points > 0 ? points : fewest;
  if (e > all || p > fewest)
    throw std::invalid_argument(source + ": holds " + std::to_string(all) +
                                " experiments, the smallest of " + std::to_string(fewest) +
                                " measurements; " + std::to_string(e) + " experiments of " +
                                std::to_string(p) + " were asked for");
  std::vector<at::Tensor> x, y, t, u;
  model::SystemLeafData data;
  for (std::int64_t i = 0; i < e; ++i) {
    const pde::MeasuredSystemExperiment& m = set.experiments[static_cast<std::size_t>(i)];
    x.push_back(m.x.slice(0, 0, p));
    t.push_back(m.t.slice(0, 0, p));
    if (set.dimensions == 2) y.push_back(m.y.slice(0, 0, p));
    u.push_back(m.u.slice(0, 0, p));
    const pde::SystemWindow& w = m.window;
    nn::DomainBox box{w.x_min, w.x_max, w.t_min, w.t_max};  // y as the default in 1-D
    if (set.dimensions == 2) box.y_min = w.y_min, box.y_max = w.y_max;
    data.boxes.push_back(box);
  }
  data.x = at::stack(x).contiguous();
  data.t = at::stack(t).contiguous();
  if (set.dimensions == 2) data.y = at::stack(y).contiguous();
  data.u = at::stack(u).contiguous();  // [L, P, q]
  return data;
}

model::SystemLeafData read_system_leaf_data(const std::string& path, const std::string& set_name,
                                            std::int64_t experiments, std::int64_t points) {
  const std::string source = path + ":/" + set_name;
  if (pde::holds_measured_system(path))
    return measured_system_leaf_data(pde::read_measured_system_set(path, set_name), experiments,
                                     points, source);
  const pde::SystemDataset dataset = pde::read_system_dataset(path, set_name);
  return system_leaf_data(dataset.set, dataset.box, experiments, points, source);
}

model::SystemRootData system_root_rows(const model::SystemLeavesImpl& leaves,
                                       const model::SystemLeafData& data, int order,
                                       std::int64_t count, std::uint64_t seed) {
  const std::int64_t per_leaf =
      std::min(data.points(), (count + data.leaves() - 1) / data.leaves());
  std::vector<at::Tensor> picks;
  for (std::int64_t i = 0; i < data.leaves(); ++i)
    picks.push_back(at::tensor(util::Rng(util::derive_seed(seed, "system_root_rows", i))
                                   .sample_without_replacement(data.points(), per_leaf),
                               at::kLong));
  const at::Tensor index = at::stack(picks);  // [L, m]
  const auto pick = [&](const at::Tensor& values) {
    return values.defined() ? at::gather(values, 1, index) : values;
  };
  const at::NoGradGuard no_grad;  // root data: no graph back to the leaves
  const nn::LeafPartials partials = nn::taylor_partials(
      leaves.network(), pick(data.x), pick(data.y), pick(data.t), data.boxes, order);
  const at::Tensor v = partials.values.permute({1, 2, 3, 0});  // [L, m, q, R]
  const std::int64_t rows = std::min(count, v.size(0) * v.size(1));
  const auto first_rows = [&](const at::Tensor& values) {
    return values.reshape({-1}).slice(0, 0, rows).to(at::kDouble).contiguous();
  };
  return {v.reshape({v.size(0) * v.size(1), -1}).slice(0, 0, rows).contiguous(),
          partials.u_t.reshape({-1, partials.u_t.size(2)}).slice(0, 0, rows).contiguous(),
          at::arange(data.leaves(), at::kLong).repeat_interleave(per_leaf).slice(0, 0, rows),
          first_rows(pick(data.x)), first_rows(pick(data.t))};
}

model::SystemLeaves fit_system_leaves(const config::SystemConfig& config,
                                      const model::SystemLeafData& data,
                                      const std::string& batch_stream, model::PhaseResult& phase,
                                      const model::TrainingCallback& progress) {
  model::SystemLeaves leaves(network_of(config, data.leaves()),
                             config.learning.leaves.initial_noise);
  model::SystemLeafTrainingOptions options = config.learning.leaf_training;
  options.seed = util::derive_seed(config.sets.seed, batch_stream, 0);
  phase = model::train_system_leaves(*leaves, data, options, progress);
  return leaves;
}

TrainedSystem train_system(const config::SystemConfig& config, const model::SystemLeafData& data,
                           const model::TrainingCallback& progress) {
  TrainedSystem system;
  system.config = config;
  system.boxes = data.boxes;
  const config::SystemLearningConfig& learning = config.learning;
  const util::Stopwatch leaf_clock;
  system.leaves =
      fit_system_leaves(config, data, "system_leaf_batches", system.leaf_phase, progress);
  system.leaf_seconds = leaf_clock.seconds();
  const util::Stopwatch root_clock;
  system.rows = system_root_rows(*system.leaves, data, learning.order, learning.condition_points,
                                 util::derive_seed(config.sets.seed, "system_roots", 0));
  // The hyperparameters from `points` rows spread evenly over all (O(points^3) a step),
  // then every root conditioned on all rows (one factorisation).
  const std::int64_t rows = system.rows.inputs.size(0);
  const std::int64_t fitted = std::min(rows, learning.root_training.points);
  const at::Tensor spread = at::arange(fitted, at::kLong).mul(rows).div(fitted, "floor");
  system.roots = model::train_system_roots(
      {system.rows.inputs.index_select(0, spread), system.rows.targets.index_select(0, spread),
       system.rows.leaf.index_select(0, spread), system.rows.x.index_select(0, spread),
       system.rows.t.index_select(0, spread)},
      learning.kernel, learning.root_training);
  for (std::size_t i = 0; i < system.roots.size(); ++i)
    system.roots[i]->set_train_data(
        system.rows.inputs,
        system.rows.targets.select(1, static_cast<std::int64_t>(i)).contiguous());
  system.root_seconds = root_clock.seconds();
  return system;
}

void save_trained_system(const std::string& path, const TrainedSystem& system) {
  io::Checkpoint checkpoint;
  checkpoint.strings["kind"] = "bhpm-system";
  checkpoint.strings["config"] = system.config.resolved_toml;
  model::store_parameters(*system.leaves, "leaves.", checkpoint);
  for (std::size_t i = 0; i < system.roots.size(); ++i)
    model::store_parameters(*system.roots[i], root_prefix(i), checkpoint);
  checkpoint.tensors["root_inputs"] = system.rows.inputs;
  checkpoint.tensors["root_targets"] = system.rows.targets;
  checkpoint.tensors["root_leaf"] = system.rows.leaf;
  if (system.rows.x.defined()) checkpoint.tensors["root_x"] = system.rows.x;
  if (system.rows.t.defined()) checkpoint.tensors["root_t"] = system.rows.t;
  checkpoint.tensors["boxes"] = boxes_tensor(system.boxes);
  io::save_checkpoint(path, checkpoint);
}

TrainedSystem load_trained_system(const std::string& path,
                                  const std::vector<std::string>& overrides) {
  const io::Checkpoint checkpoint = io::load_checkpoint(path);
  if (checkpoint.strings.count("kind") == 0 || checkpoint.strings.at("kind") != "bhpm-system")
    throw io::CheckpointError(path +
                              ": not the model of a field system (`bhpm train` with a "
                              "[system] configuration writes one)");
  TrainedSystem system;
  system.config = config::read_stored_system_config(checkpoint.string("config", path),
                                                    path + " (stored configuration)", overrides);
  system.boxes = boxes_from(checkpoint.tensor("boxes", path));
  const std::int64_t leaves = static_cast<std::int64_t>(system.boxes.size());
  system.leaves = model::SystemLeaves(network_of(system.config, leaves),
                                      system.config.learning.leaves.initial_noise);
  model::load_parameters(*system.leaves, "leaves.", checkpoint, path);
  system.rows = {checkpoint.tensor("root_inputs", path),
                 checkpoint.tensor("root_targets", path),
                 checkpoint.tensor("root_leaf", path),
                 {},
                 {}};
  if (checkpoint.tensors.count("root_x") > 0) {  // models trained before 2026-12-07 lack them
    system.rows.x = checkpoint.tensor("root_x", path);
    system.rows.t = checkpoint.tensor("root_t", path);
  }
  for (std::int64_t i = 0; i < system.rows.targets.size(1); ++i) {
    gp::ExactGp root = model::make_exact_root(
        model::RootData{system.rows.inputs, system.rows.targets.select(1, i).contiguous()},
        system.config.learning.kernel);
    model::load_parameters(*root, root_prefix(static_cast<std::size_t>(i)), checkpoint, path);
    system.roots.push_back(root);
  }
  return system;
}

}  // namespace bhpm::pipeline
