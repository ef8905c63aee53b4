#include "model/leaf_early_stopping.h"

#include <ATen/ATen.h>
#include <torch/nn/module.h>

#include <limits>
#include <stdexcept>
#include <utility>

#include "io/checkpoint.h"

namespace bhpm::model {

namespace {

const std::string kPrefix = "early_stopping/";

}  // namespace

LeafEarlyStopping::LeafEarlyStopping(const LeafModelImpl& model, LeafData kept_back)
    : kept_back_(std::move(kept_back)) {
  const std::int64_t leaves = model.options().network.leaves;
  if (kept_back_.leaves() != leaves)
    throw std::invalid_argument("leaf early stopping: the kept-back points hold " +
                                std::to_string(kept_back_.leaves()) + " experiments, the model " +
                                std::to_string(leaves) + " leaves");
  for (const auto& item : model.named_parameters()) {
    if (item.value().dim() < 1 || item.value().size(0) != leaves)
      throw std::invalid_argument("leaf early stopping: parameter " + item.key() +
                                  " does not have the " + std::to_string(leaves) +
                                  " leaves as its first dimension");
    best_parameters_[item.key()] = item.value().detach().clone();
  }
  const at::TensorOptions real = kept_back_.u.options();
  best_rmse_ = at::full({leaves}, std::numeric_limits<double>::infinity(), real);
  latest_rmse_ = at::full({leaves}, std::numeric_limits<double>::quiet_NaN(), real);
  best_iteration_ = at::full({leaves}, -1, real.dtype(at::kLong));
}

void LeafEarlyStopping::score(const LeafModelImpl& model, std::int64_t iteration) {
  const at::NoGradGuard no_grad;
  const at::Tensor predicted =
      model.network().forward(kept_back_.x, kept_back_.t, kept_back_.boxes);  // [L, Q]
  latest_rmse_ = (kept_back_.u - predicted).square().mean(1).sqrt();
  const at::Tensor improved = latest_rmse_ < best_rmse_;  // NaN never improves
  if (!improved.any().item<bool>()) return;
  const at::Tensor which = improved.nonzero().squeeze(1);
  for (const auto& item : model.named_parameters()) {
    at::Tensor& best = best_parameters_.at(item.key());
    best.index_copy_(0, which, item.value().detach().index_select(0, which));
  }
  best_rmse_ = at::where(improved, latest_rmse_, best_rmse_);
  best_iteration_.masked_fill_(improved, iteration);
}

void LeafEarlyStopping::restore_best(LeafModelImpl& model) const {
  const at::NoGradGuard no_grad;
  const at::Tensor scored = (best_iteration_ >= 0).nonzero().squeeze(1);
  for (auto& item : model.named_parameters())
    item.value().index_copy_(0, scored, best_parameters_.at(item.key()).index_select(0, scored));
}

std::vector<std::int64_t> LeafEarlyStopping::best_iterations() const {
  const at::Tensor cpu = best_iteration_.cpu().contiguous();
  return {cpu.data_ptr<std::int64_t>(), cpu.data_ptr<std::int64_t>() + cpu.numel()};
}

void LeafEarlyStopping::store(io::Checkpoint& checkpoint) const {
  for (const auto& [name, value] : best_parameters_)
    checkpoint.tensors[kPrefix + "best/" + name] = value;
  checkpoint.tensors[kPrefix + "best_rmse"] = best_rmse_;
  checkpoint.tensors[kPrefix + "latest_rmse"] = latest_rmse_;
  checkpoint.tensors[kPrefix + "best_iteration"] = best_iteration_;
}

void LeafEarlyStopping::load(const io::Checkpoint& checkpoint, const std::string& source) {
  const auto stored = [&](const std::string& key, const at::Tensor& like) {
    const at::Tensor& value = checkpoint.tensor(kPrefix + key, source);
    if (!value.sizes().equals(like.sizes()))
      throw io::CheckpointError(source + ": " + kPrefix + key + " has another shape than the " +
                                "model's");
    return value.to(like.options());
  };
  for (auto& [name, value] : best_parameters_) value = stored("best/" + name, value);
  best_rmse_ = stored("best_rmse", best_rmse_);
  latest_rmse_ = stored("latest_rmse", latest_rmse_);
  best_iteration_ = stored("best_iteration", best_iteration_);
}

}  // namespace bhpm::model
