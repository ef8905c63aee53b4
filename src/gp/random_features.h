#pragma once
/// Random features of a kernel (Rahimi and Recht 2007): a map phi: R^D -> R^F, drawn once,
/// with E[phi(x) . phi(x')] = k(x, x'), so that phi(v) . w, w ~ N(0, I_F), is a draw of the
/// zero-mean prior GP(0, k) up to the features' approximation. Pathwise samples
/// (gp/pathwise_samples.h) draw their prior part so; each kernel gives its own through
/// Kernel::random_features, so a kernel added to gp/kernel_table.cpp is sampled pathwise
/// without a change there.

#include <ATen/core/Tensor.h>

#include <cstdint>

namespace bhpm::gp {

class RandomFeatures {
 public:
  virtual ~RandomFeatures() = default;
  /// phi(v) [N, F] for v [N, D]. Each row's values do not depend on the other rows (a
  /// share of an ensemble must evaluate bit for bit as the whole, solve/predictor.h).
  virtual at::Tensor evaluate(const at::Tensor& v) const = 0;
  /// F, the number of features.
  virtual std::int64_t count() const = 0;
};

}  // namespace bhpm::gp
