#include "gp/fourier_features.h"

#include <ATen/ATen.h>

#include <cmath>

#include "util/random.h"

namespace bhpm::gp {

FourierFeatures::FourierFeatures(const at::Tensor& lengthscales, double signal_variance,
                                 std::int64_t count, std::uint64_t seed) {
  util::Rng rng(seed);
  frequencies_ = util::normal_tensor(rng, {lengthscales.size(0), count}, lengthscales.device()) /
                 lengthscales.unsqueeze(1);
  phases_ = 2.0 * M_PI * util::uniform_tensor(rng, {count}, lengthscales.device());
  scale_ = std::sqrt(signal_variance * 2.0 / static_cast<double>(count));
}

at::Tensor FourierFeatures::evaluate(const at::Tensor& v) const {
  at::Tensor angles = phases_.expand({v.size(0), -1}).clone();
  for (std::int64_t d = 0; d < v.size(1); ++d)
    angles.addcmul_(v.select(1, d).unsqueeze(1), frequencies_[d].unsqueeze(0));
  return scale_ * at::cos(angles);
}

}  // namespace bhpm::gp
