#include "model/leaf_training.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <stdexcept>

namespace bhpm::model {

std::vector<std::pair<std::string, std::string>> leaf_architecture(const LeafModelImpl& model) {
  const nn::SineMlpOptions& n = model.options().network;
  return {{"leaves (number of experiments N)", std::to_string(n.leaves)},
          {"leaves.hidden_layers", std::to_string(n.hidden_layers)},
          {"leaves.width", std::to_string(n.width)},
          {"leaves.first_omega", std::to_string(n.first_omega)},
          {"leaves.hidden_omega", std::to_string(n.hidden_omega)}};
}

void append_noise_scales(const LeafModelImpl& model, ProgressTerms& terms) {
  const at::Tensor sigma = model.noise_scale().detach();
  for (std::int64_t i = 0; i < sigma.size(0); ++i)
    terms.emplace_back("sigma[" + std::to_string(i) + "]", sigma[i].item<double>());
}

LeafTrainingResult train_leaves(LeafModelImpl& model, const LeafData& data,
                                const LeafTrainingOptions& options,
                                const TrainingCallback& progress) {
  if (options.batch_size < 0)
    throw std::invalid_argument("leaves training: batch_size must be >= 0 (got " +
                                std::to_string(options.batch_size) + ")");
  validate(data, "leaf data");
  if (data.leaves() != model.options().network.leaves)
    throw std::invalid_argument("leaf training: the data hold " + std::to_string(data.leaves()) +
                                " experiments, the model has " +
                                std::to_string(model.options().network.leaves) + " leaves");
  AdamPhase phase{"leaves", &model, leaf_architecture(model), {}, {}};
  phase.objective = [&](std::int64_t iteration) {
    const LeafData batch = select_points(
        data, minibatch_indices(data, options.batch_size, options.seed, "leaf_batch", iteration));
    const at::Tensor predicted = model.network().forward(batch.x, batch.t, batch.boxes);
    const at::Tensor loss = model.negative_log_likelihood(predicted, batch.u).sum();
    return PhaseObjective{loss, [&model, loss] {
                            ProgressTerms terms{{"nll", loss.item<double>()}};
                            append_noise_scales(model, terms);
                            return terms;
                          }};
  };
  const PhaseResult result = run_adam_phase(phase, options, progress);
  model.set_noise_scale(profiled_noise_scale(model, data));
  return {result.resumed_from, result.final_loss};
}

at::Tensor profiled_noise_scale(const LeafModelImpl& model, const LeafData& data,
                                std::int64_t chunk) {
  const at::NoGradGuard no_grad;
  at::Tensor squares = at::zeros({data.leaves()}, data.u.options());
  for (std::int64_t start = 0; start < data.points(); start += chunk) {
    const std::int64_t length = std::min(chunk, data.points() - start);
    const at::Tensor x = data.x.narrow(1, start, length), t = data.t.narrow(1, start, length);
    const at::Tensor residual =
        data.u.narrow(1, start, length) - model.network().forward(x, t, data.boxes);
    squares += residual.square().sum(1);
  }
  const at::Tensor floor = 1e-24 * data.u.square().mean(1).clamp_min(1.0);
  return (squares / static_cast<double>(data.points())).clamp_min(floor).sqrt();
}

}  // namespace bhpm::model
