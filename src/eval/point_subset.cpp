#include "eval/point_subset.h"

#include <ATen/ATen.h>

#include <numeric>
#include <stdexcept>
#include <string>

namespace bhpm::eval {

at::Tensor evenly_spread_subset(std::int64_t total, std::int64_t keep) {
  if (total < 1 || keep < 1)
    throw std::invalid_argument("evenly spread subset: needs total >= 1 and keep >= 1 (got " +
                                std::to_string(total) + ", " + std::to_string(keep) + ")");
  if (keep >= total) return at::arange(total, at::kLong);
  std::int64_t stride = (total + keep - 1) / keep;
  while (std::gcd(stride, total) != 1) ++stride;
  return std::get<0>(at::sort(at::remainder(at::arange(keep, at::kLong) * stride, total)));
}

}  // namespace bhpm::eval
