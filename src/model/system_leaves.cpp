#include "model/system_leaves.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "model/leaf_data.h"
#include "model/leaf_model.h"
#include "util/option_check.h"

namespace bhpm::model {

SystemLeavesImpl::SystemLeavesImpl(const nn::SineMlpOptions& network, double initial_noise) {
  util::require_positive(initial_noise, "system leaves", "initial_noise");
  network_ = register_module("network", nn::SineMlp(network));
  log_noise_ = register_parameter("log_noise", at::full({network.leaves, network.outputs},
                                                        std::log(initial_noise), at::kDouble));
}

at::Tensor SystemLeavesImpl::noise_scale() const { return at::exp(log_noise_); }

at::Tensor SystemLeavesImpl::negative_log_likelihood(const at::Tensor& predicted,
                                                     const at::Tensor& measured) const {
  const at::Tensor log_noise = log_noise_.unsqueeze(1);
  const at::Tensor observed = ~at::isnan(measured);
  if (observed.all().item<bool>())
    return gaussian_negative_log_likelihood(log_noise, predicted, measured).mean(1).sum(1);
  // Fields measured separately: each field's mean over the points that measure it.
  const at::Tensor terms = gaussian_negative_log_likelihood(
      log_noise, predicted, at::where(observed, measured, predicted.detach()));
  return (terms * observed).sum(1).div(observed.sum(1).clamp_min(1)).sum(1);
}

namespace {

void require_matching(const SystemLeavesImpl& leaves, const SystemLeafData& data) {
  const nn::SineMlpOptions& o = leaves.network().options();
  const bool two = o.space_dimensions == 2;
  const bool ok = data.u.defined() && data.u.dim() == 3 && data.leaves() == o.leaves &&
                  data.fields() == o.outputs && data.y.defined() == two &&
                  static_cast<std::int64_t>(data.boxes.size()) == o.leaves;
  if (!ok)
    throw std::invalid_argument("system leaves: the data must hold " + std::to_string(o.leaves) +
                                " experiments of " + std::to_string(o.outputs) + " fields" +
                                (two ? " with y" : " without y") +
                                ", as u [L, P, q] and a box each");
}

}  // namespace

void validate(const SystemLeafTrainingOptions& options) {
  validate(static_cast<const AdamSchedule&>(options), "system leaves");
  util::require_at_least(options.batch_size, 0, "system leaves training", "batch_size");
}

PhaseResult train_system_leaves(SystemLeavesImpl& leaves, const SystemLeafData& data,
                                const SystemLeafTrainingOptions& options,
                                const TrainingCallback& progress) {
  validate(options);
  require_matching(leaves, data);
  AdamPhase phase{"system_leaves", &leaves, {}, {}, {}, {}, {}};
  phase.objective = [&](std::int64_t iteration) {
    const at::Tensor indices =
        minibatch_indices(data.leaves(), data.points(), data.u.device(), options.batch_size,
                          options.seed, "system_leaf_batch", iteration);
    const auto pick = [&](const at::Tensor& values) {
      return !values.defined() || !indices.defined() ? values : at::gather(values, 1, indices);
    };
    const at::Tensor measured =
        indices.defined()
            ? at::gather(data.u, 1, indices.unsqueeze(-1).expand({-1, -1, data.fields()}))
            : data.u;
    const at::Tensor predicted =
        leaves.network().forward_fields(pick(data.x), pick(data.y), pick(data.t), data.boxes);
    const at::Tensor loss = leaves.negative_log_likelihood(predicted, measured).sum();
    return PhaseObjective{loss, [&leaves, loss] {
                            ProgressTerms terms{{"nll", loss.item<double>()}};
                            const at::Tensor sigma = leaves.noise_scale().detach().cpu();
                            for (std::int64_t i = 0; i < sigma.size(0); ++i)
                              for (std::int64_t f = 0; f < sigma.size(1); ++f)
                                terms.emplace_back(
                                    "sigma[" + std::to_string(i) + "," + std::to_string(f) + "]",
                                    sigma[i][f].item<double>());
                            return terms;
                          }};
  };
  return run_adam_phase(phase, options, progress);
}

}  // namespace bhpm::model
