#include <ATen/ATen.h>

#include <stdexcept>
#include <string>

#include "gp/function_samples.h"

namespace bhpm::gp {

namespace {

/// Members [k] of a sample set without a restriction of its own: the whole set is
/// evaluated with the k members' rows in their places and zeros elsewhere.
class SelectedSamples final : public FunctionSamples {
 public:
  SelectedSamples(std::shared_ptr<const FunctionSamples> samples, at::Tensor members)
      : samples_(std::move(samples)), members_(std::move(members)) {}
  std::int64_t count() const override { return members_.size(0); }
  std::int64_t dimensions() const override { return samples_->dimensions(); }
  at::Tensor evaluate(const at::Tensor& v) const override {
    return evaluate_at(v, at::zeros({}, v.options()));
  }
  at::Tensor evaluate_at(const at::Tensor& v, const at::Tensor& t) const override {
    const at::Tensor members = members_.to(v.device());
    const at::Tensor whole = scatter(v, members);
    const at::Tensor times = t.dim() == 0 ? t : scatter(t, members);
    return samples_->evaluate_at(whole, times).index_select(0, members);
  }

 private:
  /// rows [k, ...] placed at members in zeros [S, ...].
  at::Tensor scatter(const at::Tensor& rows, const at::Tensor& members) const {
    std::vector<std::int64_t> shape = rows.sizes().vec();
    shape[0] = samples_->count();
    return at::zeros(shape, rows.options()).index_copy(0, members, rows);
  }

  std::shared_ptr<const FunctionSamples> samples_;
  at::Tensor members_;  ///< [k] int64
};

}  // namespace

std::shared_ptr<const FunctionSamples> select_members(
    const std::shared_ptr<const FunctionSamples>& samples, const at::Tensor& members) {
  if (!samples) throw std::invalid_argument("select members: no samples");
  const at::Tensor index = members.to(at::kCPU);
  const bool in_range = index.numel() > 0 && index.min().item<std::int64_t>() >= 0 &&
                        index.max().item<std::int64_t>() < samples->count();
  if (index.dim() != 1 || index.scalar_type() != at::kLong || !in_range)
    throw std::invalid_argument("select members: members must be int64 [k], k >= 1, in [0, " +
                                std::to_string(samples->count()) + ")");
  if (auto selected = samples->select(index)) return selected;
  return std::make_shared<SelectedSamples>(samples, index);
}

}  // namespace bhpm::gp
