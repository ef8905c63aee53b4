#include "pde/box_partials.h"

#include <stdexcept>
#include <string>

#include "pde/real_fft.h"

namespace bhpm::pde {

std::vector<double> box_partials(const PeriodicBox& box, const std::vector<double>& u,
                                 const std::vector<Partial>& partials) {
  const std::int64_t points = box.points(), modes = box.modes();
  const RealFft fft(box.shape());
  FftReals field(static_cast<std::size_t>(points)), values(static_cast<std::size_t>(points));
  FftSpectrum spectrum(static_cast<std::size_t>(modes)), scaled(spectrum.size());
  std::vector<double> out;
  out.reserve(partials.size() * static_cast<std::size_t>(points));
  for (const Partial& p : partials) {
    if (p.field < 0 || (p.field + 1) * points > static_cast<std::int64_t>(u.size()))
      throw std::invalid_argument("box partials: field " + std::to_string(p.field) +
                                  " is not among the " + std::to_string(u.size() / points) +
                                  " fields given");
    std::copy(u.begin() + p.field * points, u.begin() + (p.field + 1) * points, field.begin());
    fft.forward(field.data(), spectrum.data());
    for (std::int64_t m = 0; m < modes; ++m)
      scaled[m] = spectrum[m] * box.partial_symbol(m, p.x_order, p.y_order);
    fft.backward(scaled.data(), values.data());
    out.insert(out.end(), values.begin(), values.end());
  }
  return out;
}

}  // namespace bhpm::pde
