#include "model/leaf_training.h"

#include <ATen/ATen.h>
#include <torch/optim/adam.h>

#include <cmath>
#include <filesystem>
#include <stdexcept>

#include "io/checkpoint.h"
#include "model/optimizer_state.h"
#include "pde/random.h"

namespace bhpm::model {

namespace {

constexpr const char* kPhase = "leaves";

void validate(const LeafTrainingOptions& o) {
  auto require = [](bool ok, const std::string& field, const std::string& value) {
    if (!ok) throw std::invalid_argument("leaf training: " + field + " (got " + value + ")");
  };
  require(o.iterations >= 0, "iterations must be >= 0", std::to_string(o.iterations));
  require(o.learning_rate > 0 && std::isfinite(o.learning_rate), "learning_rate must be > 0",
          std::to_string(o.learning_rate));
  require(o.final_learning_rate < 0 || std::isfinite(o.final_learning_rate),
          "final_learning_rate must be finite", std::to_string(o.final_learning_rate));
  require(o.batch_size >= 0, "batch_size must be >= 0", std::to_string(o.batch_size));
  require(o.checkpoint_every >= 1, "checkpoint_every must be >= 1",
          std::to_string(o.checkpoint_every));
  require(o.report_every >= 1, "report_every must be >= 1", std::to_string(o.report_every));
}

/// The architecture fields a checkpoint must agree on, as (configuration name, value).
std::vector<std::pair<std::string, std::string>> architecture(const LeafModelImpl& model) {
  const nn::SineMlpOptions& n = model.options().network;
  return {{"leaves (number of experiments N)", std::to_string(n.leaves)},
          {"leaves.hidden_layers", std::to_string(n.hidden_layers)},
          {"leaves.width", std::to_string(n.width)},
          {"leaves.first_omega", std::to_string(n.first_omega)},
          {"leaves.hidden_omega", std::to_string(n.hidden_omega)}};
}

io::Checkpoint make_checkpoint(LeafModelImpl& model, torch::optim::Adam& adam,
                               std::int64_t iteration, const LeafTrainingOptions& options) {
  io::Checkpoint checkpoint;
  for (const auto& item : model.named_parameters()) checkpoint.tensors["param/" + item.key()] = item.value();
  checkpoint.tensors["optimizer"] = optimizer_state_bytes(adam);
  checkpoint.integers["iteration"] = iteration;
  checkpoint.strings["phase"] = kPhase;
  checkpoint.strings["config"] = options.config;
  for (const auto& [field, value] : architecture(model)) checkpoint.strings["arch/" + field] = value;
  return checkpoint;
}

/// Loads parameters and Adam's state; returns the iteration the checkpoint reached.
std::int64_t restore(LeafModelImpl& model, torch::optim::Adam& adam, const std::string& path) {
  const io::Checkpoint checkpoint = io::load_checkpoint(path);
  if (checkpoint.string("phase", path) != kPhase)
    throw io::CheckpointError(path + ": checkpoint is of phase '" + checkpoint.string("phase", path) +
                              "', not '" + kPhase + "'");
  for (const auto& [field, value] : architecture(model)) {
    const std::string& stored = checkpoint.string("arch/" + field, path);
    if (stored != value)
      throw io::CheckpointError(path + ": checkpoint was made with " + field + " = " + stored +
                                ", the configuration asks for " + value);
  }
  at::NoGradGuard no_grad;
  for (auto& item : model.named_parameters()) {
    const at::Tensor& stored = checkpoint.tensor("param/" + item.key(), path);
    if (stored.sizes() != item.value().sizes())
      throw io::CheckpointError(path + ": parameter " + item.key() + " has another shape");
    item.value().copy_(stored);
  }
  load_optimizer_state(adam, checkpoint.tensor("optimizer", path));
  return checkpoint.integer("iteration", path);
}

/// Minibatch indices [L, B] for step `iteration`, or an undefined tensor for full batches.
at::Tensor batch_indices(const LeafData& data, const LeafTrainingOptions& options,
                         std::int64_t iteration) {
  if (options.batch_size == 0 || options.batch_size >= data.points()) return {};
  pde::Rng rng(pde::derive_seed(options.seed, "leaf_batch", static_cast<std::uint64_t>(iteration)));
  at::Tensor indices = at::empty({data.leaves(), options.batch_size}, at::kLong);
  for (std::int64_t leaf = 0; leaf < data.leaves(); ++leaf) {
    const auto chosen = rng.sample_without_replacement(data.points(), options.batch_size);
    std::copy(chosen.begin(), chosen.end(), indices[leaf].data_ptr<std::int64_t>());
  }
  return indices;
}

/// Cosine annealing from learning_rate (step 0) to final_learning_rate (last step).
double learning_rate_at(const LeafTrainingOptions& o, std::int64_t iteration) {
  if (o.final_learning_rate < 0 || o.iterations <= 1) return o.learning_rate;
  const double progress = static_cast<double>(iteration) / static_cast<double>(o.iterations - 1);
  return o.final_learning_rate +
         0.5 * (o.learning_rate - o.final_learning_rate) * (1.0 + std::cos(M_PI * progress));
}

void set_learning_rate(torch::optim::Adam& adam, double rate) {
  for (auto& group : adam.param_groups())
    static_cast<torch::optim::AdamOptions&>(group.options()).lr(rate);
}

at::Tensor pick(const at::Tensor& values, const at::Tensor& indices) {
  return indices.defined() ? at::gather(values, 1, indices) : values;
}

void report(const TrainingCallback& progress, const RateMeter& meter, LeafModelImpl& model,
            std::int64_t iteration, std::int64_t iterations, double loss) {
  TrainingProgress p{kPhase, iteration, iterations, {{"nll", loss}}, 0, 0};
  const at::Tensor sigma = model.noise_scale().detach();
  for (int64_t i = 0; i < sigma.size(0); ++i)
    p.terms.emplace_back("sigma[" + std::to_string(i) + "]", sigma[i].item<double>());
  meter.update(p);
  progress(p);
}

}  // namespace

LeafTrainingResult train_leaves(LeafModelImpl& model, const LeafData& data,
                                const LeafTrainingOptions& options,
                                const TrainingCallback& progress) {
  validate(options);
  validate(data, "leaf data");
  if (data.leaves() != model.options().network.leaves)
    throw std::invalid_argument("leaf training: the data hold " + std::to_string(data.leaves()) +
                                " experiments, the model has " +
                                std::to_string(model.options().network.leaves) + " leaves");
  torch::optim::Adam adam(model.parameters(), torch::optim::AdamOptions(options.learning_rate));
  LeafTrainingResult result;
  const bool resume = !options.checkpoint_path.empty() &&
                      std::filesystem::exists(options.checkpoint_path);
  if (resume) result.resumed_from = restore(model, adam, options.checkpoint_path);

  const RateMeter meter(result.resumed_from);
  for (std::int64_t iteration = result.resumed_from; iteration < options.iterations;) {
    const at::Tensor indices = batch_indices(data, options, iteration);
    const at::Tensor predicted =
        model.network().forward(pick(data.x, indices), pick(data.t, indices), data.boxes);
    const at::Tensor loss = model.negative_log_likelihood(predicted, pick(data.u, indices)).sum();
    const double value = loss.item<double>();
    if (!std::isfinite(value))
      throw std::runtime_error("phase leaves, iteration " + std::to_string(iteration + 1) +
                               ": the objective is not finite (" + std::to_string(value) + ")" +
                               (options.checkpoint_path.empty()
                                    ? std::string()
                                    : "; the last good checkpoint is kept at " + options.checkpoint_path));
    adam.zero_grad();
    loss.backward();
    set_learning_rate(adam, learning_rate_at(options, iteration));
    adam.step();
    ++iteration;
    result.final_loss = value;
    if (progress && (iteration % options.report_every == 0 || iteration == options.iterations))
      report(progress, meter, model, iteration, options.iterations, value);
    if (!options.checkpoint_path.empty() &&
        (iteration % options.checkpoint_every == 0 || iteration == options.iterations))
      io::save_checkpoint(options.checkpoint_path, make_checkpoint(model, adam, iteration, options));
  }
  return result;
}

}  // namespace bhpm::model
