#include "pde/dealiasing.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "util/name_list.h"

namespace bhpm::pde {

const std::vector<std::string>& dealiasing_names() {
  static const std::vector<std::string> names{"pad", "truncate", "none"};
  return names;
}

DealiasedProduct::DealiasedProduct(const PeriodicGrid& grid, const std::string& method)
    : grid_(grid), product_points_(grid.points()) {
  if (!util::is_listed(method, dealiasing_names()))
    throw std::invalid_argument("dealiasing: unknown method \"" + method + "\" (must be " +
                                util::quoted_alternatives(dealiasing_names()) + ")");
  const at::TensorOptions real = grid.real_options();
  const std::int64_t modes = grid.modes();
  truncate_ = method == "truncate";
  kept_ = truncate_ ? grid.two_thirds_mask() : at::ones({modes}, real);
  if (method != "pad") return;
  const std::int64_t half = grid.points() / 2;
  product_points_ = 3 * half + half % 2;  // >= 3n/2, even
  kept_.index_put_({modes - 1}, 0.0);
  // rfft without normalisation: a field's coefficients scale with its number of points.
  const double ratio = static_cast<double>(product_points_) / static_cast<double>(grid.points());
  padding_ = at::full({modes}, ratio, real);
  // The n-point Nyquist wave c cos(n x / 2) (c real for a real field) is one coefficient
  // there and two, +-n/2, on the m points.
  padding_.index_put_({modes - 1}, 0.5 * ratio);
  unpadding_ = kept_ / ratio;
}

at::Tensor DealiasedProduct::to_physical(const at::Tensor& spectra) const {
  if (!padding_.defined()) return grid_.to_physical(spectra);
  const std::int64_t extra = product_points_ / 2 + 1 - grid_.modes();
  return at::fft_irfft(at::constant_pad_nd(spectra * padding_, {0, extra}), product_points_);
}

at::Tensor DealiasedProduct::to_spectral(const at::Tensor& values) const {
  if (!padding_.defined())
    return truncate_ ? grid_.to_spectral(values) * kept_ : grid_.to_spectral(values);
  return at::fft_rfft(values).narrow(-1, 0, grid_.modes()) * unpadding_;
}

}  // namespace bhpm::pde
