#include "model/leaf_training.h"

#include <ATen/ATen.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

#include "model/leaf_early_stopping.h"
#include "util/number_format.h"
#include "util/option_check.h"

namespace bhpm::model {

std::vector<std::pair<std::string, std::string>> leaf_architecture(const LeafModelImpl& model) {
  const nn::SineMlpOptions& n = model.options().network;
  return {{"leaves (number of experiments N)", std::to_string(n.leaves)},
          {"leaves.hidden_layers", std::to_string(n.hidden_layers)},
          {"leaves.width", std::to_string(n.width)},
          {"leaves.first_omega", util::format_significant(n.first_omega, 10)},
          {"leaves.hidden_omega", util::format_significant(n.hidden_omega, 10)},
          {"leaves.precision", n.precision}};
}

void append_noise_scales(const LeafModelImpl& model, ProgressTerms& terms) {
  const at::Tensor sigma = model.noise_scale().detach();
  for (std::int64_t i = 0; i < sigma.size(0); ++i)
    terms.emplace_back("sigma[" + std::to_string(i) + "]", sigma[i].item<double>());
}

void validate(const LeafTrainingOptions& options) {
  validate(static_cast<const AdamSchedule&>(options), "leaves");
  const std::string owner = "leaves training";
  util::require_at_least(options.batch_size, 0, owner, "batch_size");
  util::require_option(
      options.validation_every_nth_point == 0 || options.validation_every_nth_point >= 2, owner,
      "validation_every_nth_point",
      "must be 0 (no early stopping) or >= 2 (1 would keep every point back)",
      util::option_value(options.validation_every_nth_point));
  util::require_at_least(options.validation_interval, 1, owner, "validation_interval");
}

namespace {

/// The per-leaf result of early stopping, read off its state.
void record_stopping(const LeafEarlyStopping& stopping, LeafTrainingResult& result) {
  result.kept_iterations = stopping.best_iterations();
  const at::Tensor rmse = stopping.best_rmse().cpu().contiguous();
  result.validation_rmse.assign(rmse.data_ptr<double>(), rmse.data_ptr<double>() + rmse.numel());
}

void append_validation_rmse(const LeafEarlyStopping& stopping, ProgressTerms& terms) {
  const at::Tensor rmse = stopping.latest_rmse().cpu();
  for (std::int64_t i = 0; i < rmse.size(0); ++i)
    terms.emplace_back("validation_rmse[" + std::to_string(i) + "]", rmse[i].item<double>());
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
  const std::int64_t every = options.validation_every_nth_point;
  std::optional<LeafEarlyStopping> stopping;
  LeafData fitted = data;
  if (every > 0) {
    auto [kept_in, kept_back] = keep_back_points(data, every);
    fitted = std::move(kept_in);
    stopping.emplace(model, std::move(kept_back));
  }

  AdamPhase phase{"leaves", &model, leaf_architecture(model), {}, {}, {}, {}};
  phase.architecture.emplace_back("train_leaves.validation_every_nth_point", std::to_string(every));
  phase.objective = [&](std::int64_t iteration) {
    if (stopping && iteration % options.validation_interval == 0) stopping->score(model, iteration);
    const LeafData batch = select_points(
        fitted,
        minibatch_indices(fitted, options.batch_size, options.seed, "leaf_batch", iteration));
    const at::Tensor predicted = model.network().forward(batch.x, batch.t, batch.boxes);
    const at::Tensor loss = model.negative_log_likelihood(predicted, batch.u).sum();
    return PhaseObjective{loss, [&model, &stopping, loss] {
                            ProgressTerms terms{{"nll", loss.item<double>()}};
                            append_noise_scales(model, terms);
                            if (stopping) append_validation_rmse(*stopping, terms);
                            return terms;
                          }};
  };
  if (stopping) {
    phase.finish = [&] { stopping->score(model, options.iterations); };
    phase.store_state = [&](io::Checkpoint& checkpoint) { stopping->store(checkpoint); };
    phase.load_state = [&](const io::Checkpoint& checkpoint, const std::string& source) {
      stopping->load(checkpoint, source);
    };
  }
  const PhaseResult phase_result = run_adam_phase(phase, options, progress);
  LeafTrainingResult result{phase_result.resumed_from, phase_result.final_loss, {}, {}};
  if (stopping) {
    stopping->restore_best(model);
    record_stopping(*stopping, result);
  }
  model.set_noise_scale(profiled_noise_scale(model, data));
  return result;
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
