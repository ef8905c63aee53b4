#include "pde/plain_etdrk4.h"

#include <ATen/ATen.h>

#include <stdexcept>

#include "pde/dealiasing.h"
#include "util/tensor_values.h"

namespace bhpm::pde {

namespace {

using Spectrum = PlainEtdrk4::Spectrum;

/// a b in real arithmetic (std::complex's operator* takes a slow path for infinities).
inline std::complex<double> times(std::complex<double> a, std::complex<double> b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

Spectrum complex_values(const at::Tensor& tensor) {
  const at::Tensor values = tensor.to(at::kCPU, at::kComplexDouble).contiguous();
  const auto* begin = values.data_ptr<c10::complex<double>>();
  Spectrum out(static_cast<std::size_t>(values.numel()));
  for (std::size_t j = 0; j < out.size(); ++j) out[j] = {begin[j].real(), begin[j].imag()};
  return out;
}

}  // namespace

PlainEtdrk4::PlainEtdrk4(const PeriodicGrid& grid, const Equation& equation,
                         const std::string& dealias)
    : term_(equation.nonlinear), modes_(grid.modes()), grid_fft_(grid.points()) {
  if (!grid.device().is_cpu())
    throw std::invalid_argument("plain ETDRK4: the grid must be on the CPU");
  if (term_ && !term_->evaluates_values())
    throw std::invalid_argument("plain ETDRK4: the nonlinear term " + term_->describe() +
                                " evaluates tensors only");
  const DealiasedProduct product(grid, dealias);
  if (product.padding().defined()) {
    product_fft_ = std::make_unique<RealFft>(product.product_points());
    to_product_ = util::plain_values(product.padding());
    from_product_ = util::plain_values(product.unpadding());
  } else {
    to_product_.assign(static_cast<std::size_t>(modes_), 1.0);
    from_product_ = util::plain_values(product.kept_modes());
  }
  if (term_)
    for (int m = 0; m <= term_->max_derivative(); ++m)
      symbols_.push_back(complex_values(grid.derivative_symbol(m)));
}

PlainEtdrk4::Coefficients PlainEtdrk4::coefficients(const Etdrk4StepCoefficients& tensors) {
  return {complex_values(tensors.e),  complex_values(tensors.e2), complex_values(tensors.q),
          complex_values(tensors.f1), complex_values(tensors.f2), complex_values(tensors.f3)};
}

PlainEtdrk4::Workspace PlainEtdrk4::workspace() const {
  const auto m = static_cast<std::size_t>(product_fft().size());
  const auto n = static_cast<std::size_t>(modes_);
  Workspace work;
  work.padded.resize(m / 2 + 1);
  work.derivatives.resize(symbols_.size() * m);
  work.values.resize(m);
  for (Spectrum* stage : {&work.e2v, &work.a, &work.b, &work.c, &work.na, &work.nb, &work.nc})
    stage->resize(n);
  return work;
}

void PlainEtdrk4::nonlinear(std::int64_t member, const Spectrum& v, double t, Spectrum& nv,
                            Workspace& work) const {
  const RealFft& fft = product_fft();
  const std::size_t m = static_cast<std::size_t>(fft.size()), n = v.size();
  for (std::size_t order = 0; order < symbols_.size(); ++order) {
    std::fill(work.padded.begin() + static_cast<std::ptrdiff_t>(n), work.padded.end(),
              std::complex<double>{});
    for (std::size_t j = 0; j < n; ++j)
      work.padded[j] = times(symbols_[order][j], v[j]) * to_product_[j];
    fft.backward(work.padded.data(), work.derivatives.data() + order * m);
  }
  term_->evaluate_values(member, work.derivatives.data(), fft.size(), t, work.values.data());
  fft.forward(work.values.data(), work.padded.data());
  nv.resize(n);
  for (std::size_t j = 0; j < n; ++j) nv[j] = work.padded[j] * from_product_[j];
}

void PlainEtdrk4::step(std::int64_t member, const Spectrum& v, const Spectrum& nv,
                       const Coefficients& c, double t, double h, Spectrum& out,
                       Workspace& work) const {
  const std::size_t n = v.size();
  out.resize(n);
  if (!term_) {
    for (std::size_t j = 0; j < n; ++j) out[j] = times(c.e[j], v[j]);
    return;
  }
  const double middle = t + 0.5 * h;
  for (std::size_t j = 0; j < n; ++j) {
    work.e2v[j] = times(c.e2[j], v[j]);
    work.a[j] = work.e2v[j] + times(c.q[j], nv[j]);
  }
  nonlinear(member, work.a, middle, work.na, work);
  for (std::size_t j = 0; j < n; ++j) work.b[j] = work.e2v[j] + times(c.q[j], work.na[j]);
  nonlinear(member, work.b, middle, work.nb, work);
  for (std::size_t j = 0; j < n; ++j)
    work.c[j] = times(c.e2[j], work.a[j]) + times(c.q[j], 2.0 * work.nb[j] - nv[j]);
  nonlinear(member, work.c, t + h, work.nc, work);
  for (std::size_t j = 0; j < n; ++j)
    out[j] = times(c.e[j], v[j]) + times(c.f1[j], nv[j]) +
             times(2.0 * c.f2[j], work.na[j] + work.nb[j]) + times(c.f3[j], work.nc[j]);
}

void PlainEtdrk4::to_spectral(const double* u, Spectrum& v) const {
  v.resize(static_cast<std::size_t>(modes_));
  grid_fft_.forward(u, v.data());
}

void PlainEtdrk4::to_physical(const Spectrum& v, double* u, Workspace& work) const {
  std::copy(v.begin(), v.end(), work.padded.begin());
  grid_fft_.backward(work.padded.data(), u);
}

}  // namespace bhpm::pde
