#pragma once
/// The leaves of a system of fields (docs/systems.md, "Leaves of systems"): L networks of
/// (x, t) or (x, y, t) with q outputs (nn/sine_mlp.h), one per experiment, and per leaf and
/// field the scale sigma_if of its i.i.d. Gaussian likelihood, learned as log sigma_if.
/// Phase 1 for them: each leaf minimises the sum over its fields of the per-point negative
/// log-likelihood (the one-field leaves' Eq. 2, field by field) with Adam, as
/// model/leaf_training.h does for one field (minibatches drawn from the iteration alone).

#include <ATen/core/Tensor.h>
#include <torch/nn/module.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <string>
#include <vector>

#include "model/adam_phase.h"
#include "nn/sine_mlp.h"

namespace bhpm::model {

/// The measurements of each experiment: every field at every point, or NaN where a field
/// was not measured (fields measured separately).
struct SystemLeafData {
  at::Tensor x, y, t;                ///< [L, P] double; y undefined in one dimension
  at::Tensor u;                      ///< [L, P, q] double, NaN where not measured
  std::vector<nn::DomainBox> boxes;  ///< [L]

  std::int64_t leaves() const { return x.size(0); }
  std::int64_t points() const { return x.size(1); }
  std::int64_t fields() const { return u.size(2); }
};

class SystemLeavesImpl : public torch::nn::Module {
 public:
  /// Throws as nn::validate(network) and unless initial_noise > 0.
  SystemLeavesImpl(const nn::SineMlpOptions& network, double initial_noise);

  /// sigma [L, q].
  at::Tensor noise_scale() const;
  /// Per leaf [L]: the sum over fields of the per-point mean negative log-likelihood of the
  /// measurements u_hat [L, B, q] under the predictions [L, B, q], each field's mean over
  /// the points that measure it (NaN in u_hat: not measured there).
  at::Tensor negative_log_likelihood(const at::Tensor& predicted, const at::Tensor& measured) const;

  nn::SineMlpImpl& network() { return *network_; }
  const nn::SineMlpImpl& network() const { return *network_; }

 private:
  nn::SineMlp network_{nullptr};
  at::Tensor log_noise_;  ///< [L, q]
};

TORCH_MODULE(SystemLeaves);

struct SystemLeafTrainingOptions : AdamSchedule {
  std::int64_t batch_size = 0;  ///< points per leaf per step; 0 = all
  std::uint64_t seed = 0;       ///< minibatch draws
};

/// Throws util::OptionError naming the field, its value and the rule.
void validate(const SystemLeafTrainingOptions& options);

/// Trains the leaves on `data`; throws std::invalid_argument when the data do not match
/// the network (leaves, space dimensions, fields) and as run_adam_phase.
PhaseResult train_system_leaves(SystemLeavesImpl& leaves, const SystemLeafData& data,
                                const SystemLeafTrainingOptions& options,
                                const TrainingCallback& progress = {});

}  // namespace bhpm::model
