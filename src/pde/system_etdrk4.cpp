#include "pde/system_etdrk4.h"

#include <ATen/ATen.h>
#include <Eigen/Dense>
#include <Eigen/Eigenvalues>

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>

#include "pde/etdrk4_coefficients.h"
#include "util/number_format.h"

namespace bhpm::pde {

namespace {

/// Largest condition number of V accepted (Frobenius norms of V and V^{-1}).
constexpr double kMaxEigenvectorCondition = 1e8;

using ComplexMatrix = Eigen::MatrixXcd;

/// L(k) at spectrum entry `mode`.
ComplexMatrix linear_part(const PeriodicBox& box, const FieldSystem& system, std::int64_t mode) {
  const std::int64_t q = system.size();
  ComplexMatrix l = ComplexMatrix::Zero(q, q);
  for (std::int64_t i = 0; i < q; ++i)
    for (const LinearTerm& term : system.equations[i].linear)
      l(i, term.partial.field) +=
          term.coefficient * box.partial_symbol(mode, term.partial.x_order, term.partial.y_order);
  return l;
}

/// Copies a q x q matrix into `out` at entry `mode` (row-major).
void store_matrix(const ComplexMatrix& m, std::int64_t mode,
                  std::vector<std::complex<double>>& out) {
  const std::int64_t q = m.rows();
  for (std::int64_t i = 0; i < q; ++i)
    for (std::int64_t j = 0; j < q; ++j) out[(mode * q + i) * q + j] = m(i, j);
}

ComplexMatrix load_matrix(const std::vector<std::complex<double>>& from, std::int64_t mode,
                          std::int64_t q) {
  ComplexMatrix m(q, q);
  for (std::int64_t i = 0; i < q; ++i)
    for (std::int64_t j = 0; j < q; ++j) m(i, j) = from[(mode * q + i) * q + j];
  return m;
}

}  // namespace

SystemEtdrk4::SystemEtdrk4(const PeriodicBox& box, const FieldSystem& system, int contour_points,
                           const PointwiseNonlinearity* nonlinearity)
    : box_(box),
      fields_(system.size()),
      contour_points_(contour_points),
      nonlinear_(box, system, nonlinearity),
      fft_(box.shape()) {
  const std::int64_t q = fields_, modes = box.modes();
  eigenvalues_.resize(static_cast<std::size_t>(modes * q));
  vectors_.resize(static_cast<std::size_t>(modes * q * q));
  linear_.resize(vectors_.size());
  inverses_.resize(vectors_.size());
  Eigen::ComplexEigenSolver<ComplexMatrix> solver;
  for (std::int64_t m = 0; m < modes; ++m) {
    const ComplexMatrix l = linear_part(box, system, m);
    store_matrix(l, m, linear_);
    ComplexMatrix v = ComplexMatrix::Identity(q, q);
    Eigen::VectorXcd lambda = l.diagonal();
    if (!l.isDiagonal()) {
      solver.compute(l);
      v = solver.eigenvectors();
      lambda = solver.eigenvalues();
    }
    const ComplexMatrix inverse = v.inverse();
    if (!(v.norm() * inverse.norm() <= kMaxEigenvectorCondition))
      throw std::invalid_argument(
          "system '" + system.name +
          "': its linear part has no well-conditioned eigenvectors at "
          "k_x = " +
          util::format_significant(box.kx(m), 6) +
          ", k_y = " + util::format_significant(box.ky(m), 6) +
          " (a defective coupling of the fields): move the coupling term into the nonlinear part");
    for (std::int64_t i = 0; i < q; ++i) eigenvalues_[m * q + i] = lambda(i);
    store_matrix(v, m, vectors_);
    store_matrix(inverse, m, inverses_);
  }
  const std::size_t state = static_cast<std::size_t>(q * modes);
  for (FftSpectrum* s :
       {&nv_, &a_, &na_, &b_, &nb_, &c_, &nc_, &twice_nb_minus_nv_, &twice_na_plus_nb_})
    s->assign(state, 0.0);
}

SystemEtdrk4::Coefficients SystemEtdrk4::coefficients(double h) const {
  const std::int64_t q = fields_, modes = box_.modes();
  // The scalar functions of each distinct h lambda (fields and wavenumbers of one |k| share
  // them), by the one-field solver's contour integrals (pde/etdrk4_coefficients.h).
  std::vector<c10::complex<double>> z;
  std::map<std::pair<double, double>, std::int64_t> distinct;
  std::vector<std::int64_t> index_of;  // [modes q]: into z
  for (const std::complex<double>& lambda : eigenvalues_) {
    const std::complex<double> hz = h * lambda;
    const auto found = distinct.emplace(std::pair{hz.real(), hz.imag()},
                                        static_cast<std::int64_t>(distinct.size()));
    if (found.second) z.emplace_back(hz.real(), hz.imag());
    index_of.push_back(found.first->second);
  }
  const at::Tensor z_tensor = at::tensor(at::ArrayRef<c10::complex<double>>(z), at::kComplexDouble);
  const Etdrk4Coefficients g = etdrk4_coefficients(z_tensor, h, contour_points_);
  const at::Tensor g_q = g.q.contiguous(), g_f1 = g.f1.contiguous(), g_f2 = g.f2.contiguous(),
                   g_f3 = g.f3.contiguous();
  Coefficients c;
  for (auto* matrices : {&c.e, &c.e2, &c.q, &c.f1, &c.f2, &c.f3})
    matrices->resize(static_cast<std::size_t>(modes * q * q));
  Eigen::VectorXcd e(q), e2(q), qq(q), f1(q), f2(q), f3(q);
  const auto plain = [](c10::complex<double> value) {
    return std::complex<double>(value.real(), value.imag());
  };
  for (std::int64_t m = 0; m < modes; ++m) {
    for (std::int64_t i = 0; i < q; ++i) {
      const std::int64_t k = index_of[static_cast<std::size_t>(m * q + i)];
      const std::complex<double> hz = plain(z[static_cast<std::size_t>(k)]);
      e(i) = std::exp(hz);
      e2(i) = std::exp(0.5 * hz);
      qq(i) = plain(g_q.data_ptr<c10::complex<double>>()[k]);
      f1(i) = plain(g_f1.data_ptr<c10::complex<double>>()[k]);
      f2(i) = plain(g_f2.data_ptr<c10::complex<double>>()[k]);
      f3(i) = plain(g_f3.data_ptr<c10::complex<double>>()[k]);
    }
    const ComplexMatrix v = load_matrix(vectors_, m, q), inverse = load_matrix(inverses_, m, q);
    const auto apply = [&](const Eigen::VectorXcd& diagonal) {
      return ComplexMatrix(v * diagonal.asDiagonal() * inverse);
    };
    store_matrix(apply(e), m, c.e);
    store_matrix(apply(e2), m, c.e2);
    store_matrix(apply(qq), m, c.q);
    store_matrix(apply(f1), m, c.f1);
    store_matrix(apply(f2), m, c.f2);
    store_matrix(apply(f3), m, c.f3);
  }
  return c;
}

void SystemEtdrk4::combine(
    std::initializer_list<std::pair<const std::vector<std::complex<double>>*, const FftSpectrum*>>
        terms,
    FftSpectrum& out) const {
  const std::int64_t q = fields_, modes = box_.modes();
  for (std::int64_t m = 0; m < modes; ++m)
    for (std::int64_t i = 0; i < q; ++i) {
      std::complex<double> sum = 0.0;
      for (const auto& [matrix, x] : terms) {
        const std::complex<double>* row = matrix->data() + (m * q + i) * q;
        for (std::int64_t j = 0; j < q; ++j) sum += row[j] * (*x)[j * modes + m];
      }
      out[i * modes + m] = sum;
    }
}

void SystemEtdrk4::step(const FftSpectrum& v, const Coefficients& c, FftSpectrum& out) {
  nonlinear_.evaluate(v, nv_);
  combine({{&c.e2, &v}, {&c.q, &nv_}}, a_);
  nonlinear_.evaluate(a_, na_);
  combine({{&c.e2, &v}, {&c.q, &na_}}, b_);
  nonlinear_.evaluate(b_, nb_);
  for (std::size_t k = 0; k < v.size(); ++k) twice_nb_minus_nv_[k] = 2.0 * nb_[k] - nv_[k];
  combine({{&c.e2, &a_}, {&c.q, &twice_nb_minus_nv_}}, c_);
  nonlinear_.evaluate(c_, nc_);
  for (std::size_t k = 0; k < v.size(); ++k) twice_na_plus_nb_[k] = 2.0 * (na_[k] + nb_[k]);
  combine({{&c.e, &v}, {&c.f1, &nv_}, {&c.f2, &twice_na_plus_nb_}, {&c.f3, &nc_}}, out);
}

std::vector<double> SystemEtdrk4::time_derivative(const std::vector<double>& u) {
  const std::int64_t q = fields_, modes = box_.modes();
  FftSpectrum v, derivative(static_cast<std::size_t>(q * modes));
  to_spectral(u.data(), v);
  nonlinear_.evaluate(v, nv_);
  for (std::int64_t m = 0; m < modes; ++m)
    for (std::int64_t i = 0; i < q; ++i) {
      std::complex<double> sum = nv_[i * modes + m];
      for (std::int64_t j = 0; j < q; ++j) sum += linear_[(m * q + i) * q + j] * v[j * modes + m];
      derivative[i * modes + m] = sum;
    }
  std::vector<double> out(u.size());
  to_physical(derivative, out.data());
  return out;
}

void SystemEtdrk4::to_spectral(const double* u, FftSpectrum& v) const {
  const std::int64_t points = box_.points(), modes = box_.modes();
  v.resize(static_cast<std::size_t>(fields_ * modes));
  for (std::int64_t i = 0; i < fields_; ++i) fft_.forward(u + i * points, v.data() + i * modes);
}

void SystemEtdrk4::to_physical(const FftSpectrum& v, double* u) const {
  const std::int64_t points = box_.points(), modes = box_.modes();
  FftSpectrum scratch(static_cast<std::size_t>(modes));
  for (std::int64_t i = 0; i < fields_; ++i) {
    std::copy(v.begin() + i * modes, v.begin() + (i + 1) * modes, scratch.begin());
    fft_.backward(scratch.data(), u + i * points);
  }
}

}  // namespace bhpm::pde
