#include "pde/system_initial_condition.h"

#include <ATen/ATen.h>

#include <cmath>
#include <stdexcept>

#include "pde/expression.h"
#include "pde/periodic_grid.h"
#include "pde/periodicity.h"
#include "pde/real_fft.h"
#include "util/name_list.h"
#include "util/random.h"

namespace bhpm::pde {

const std::vector<std::string>& system_initial_condition_kinds() {
  static const std::vector<std::string> kinds = {"gp", "expression"};
  return kinds;
}

namespace {

/// The eigenvalues [n/2+1] of one axis's kernel matrix (pde/initial_condition.h).
std::vector<double> axis_eigenvalues(double min, double max, std::int64_t n,
                                     const PeriodicGpOptions& options) {
  const at::Tensor values =
      periodic_kernel_eigenvalues(PeriodicGrid(min, max, n), options).contiguous();
  return {values.data_ptr<double>(), values.data_ptr<double>() + values.numel()};
}

/// Field values [points] of an expression in x and y; refused when not finite or not
/// periodic along a row or a column.
std::vector<double> expression_field(const PeriodicBox& box, const std::string& text,
                                     const std::string& field) {
  Expression expression(text, {"x", "y"}, field,
                        {{"L_x", box.x_max() - box.x_min()}, {"L_y", box.y_max() - box.y_min()}});
  std::vector<double> xs, ys;
  for (double y : box.y())
    for (double x : box.x()) {
      xs.push_back(x);
      ys.push_back(y);
    }
  std::vector<double> u(xs.size());
  expression.evaluate({xs.data(), ys.data()}, u.size(), u.data());
  for (double value : u)
    if (!std::isfinite(value))
      throw std::invalid_argument(field + ": expression '" + text +
                                  "' is not finite at every grid point");
  const std::string source = field + " '" + text + "'";
  const PeriodicGrid along_x(box.x_min(), box.x_max(), box.nx());
  const std::vector<double> x = box.x();
  for (std::int64_t r = 0; r < box.ny(); ++r)
    require_periodic(along_x, x, {u.begin() + r * box.nx(), u.begin() + (r + 1) * box.nx()},
                     source + " along x");
  if (box.dimensions() == 2) {
    const PeriodicGrid along_y(box.y_min(), box.y_max(), box.ny());
    for (std::int64_t c = 0; c < box.nx(); ++c) {
      std::vector<double> column;
      for (std::int64_t r = 0; r < box.ny(); ++r) column.push_back(u[r * box.nx() + c]);
      require_periodic(along_y, box.y(), column, source + " along y");
    }
  }
  return u;
}

}  // namespace

std::vector<double> sample_periodic_gp(const PeriodicBox& box, const PeriodicGpOptions& options,
                                       std::uint64_t seed) {
  const std::vector<double> lambda_x =
      axis_eigenvalues(box.x_min(), box.x_max(), box.nx(), options);
  std::vector<double> lambda_y = {1.0};
  if (box.dimensions() == 2)
    lambda_y = axis_eigenvalues(box.y_min(), box.y_max(), box.ny(), {1.0, options.length_scale});
  util::Rng rng(seed);
  FftReals u(static_cast<std::size_t>(box.points()));
  for (double& value : u) value = rng.normal();
  const RealFft fft(box.shape());
  FftSpectrum spectrum(static_cast<std::size_t>(box.modes()));
  fft.forward(u.data(), spectrum.data());
  const std::int64_t columns = box.spectrum_columns();
  for (std::int64_t m = 0; m < box.modes(); ++m) {
    const std::int64_t r = m / columns;
    const std::int64_t row = std::min(r, box.ny() - r);  // |r'|: the kernel is even
    spectrum[m] *= std::sqrt(lambda_x[m % columns] * lambda_y[box.dimensions() == 2 ? row : 0]);
  }
  fft.backward(spectrum.data(), u.data());
  return {u.begin(), u.end()};
}

std::vector<double> system_initial_condition(const PeriodicBox& box, const FieldSystem& system,
                                             const SystemInitialConditionOptions& options,
                                             std::uint64_t seed, const std::string& stream,
                                             std::int64_t e) {
  util::require_listed(options.kind, system_initial_condition_kinds(), "initial condition", "kind");
  std::vector<double> u0;
  for (std::int64_t i = 0; i < system.size(); ++i) {
    std::vector<double> field;
    if (options.kind == "gp") {
      field = sample_periodic_gp(
          box, options.gp,
          util::derive_seed(seed, stream + "/" + system.fields[i], static_cast<std::uint64_t>(e)));
    } else {
      if (static_cast<std::int64_t>(options.expressions.size()) != system.size())
        throw std::invalid_argument(options.field_names("expressions") + ": " +
                                    std::to_string(system.size()) +
                                    " fields need as many expressions (got " +
                                    std::to_string(options.expressions.size()) + ")");
      field = expression_field(box, options.expressions[i],
                               options.field_names("expressions") + "[" + std::to_string(i) + "]");
    }
    u0.insert(u0.end(), field.begin(), field.end());
  }
  return u0;
}

}  // namespace bhpm::pde
