#include "pde/real_fft.h"

#include <fftw3.h>

#include <mutex>
#include <stdexcept>
#include <string>

namespace bhpm::pde {

namespace {

/// FFTW's planner is not thread-safe; executing a plan is.
std::mutex& planner_mutex() {
  static std::mutex mutex;
  return mutex;
}

fftw_complex* as_fftw(std::complex<double>* values) {
  return reinterpret_cast<fftw_complex*>(values);
}

/// Whether FFTW's SIMD plans may transform these arrays (aligned as fftw_malloc's).
bool simd_aligned(const void* a, const void* b) {
  return fftw_alignment_of(static_cast<double*>(const_cast<void*>(a))) == 0 &&
         fftw_alignment_of(static_cast<double*>(const_cast<void*>(b))) == 0;
}

}  // namespace

void* fft_allocate(std::size_t bytes) {
  void* pointer = fftw_malloc(bytes);
  if (!pointer && bytes > 0) throw std::bad_alloc();
  return pointer;
}

void fft_free(void* pointer) noexcept { fftw_free(pointer); }

RealFft::RealFft(std::int64_t n) : RealFft(std::vector<std::int64_t>{n}) {}

RealFft::RealFft(const std::vector<std::int64_t>& shape) {
  if (shape.empty() || shape.size() > 2)
    throw std::invalid_argument("FFT: arrays of 1 or 2 axes only (got " +
                                std::to_string(shape.size()) + ")");
  std::vector<int> lengths;
  n_ = 1;
  for (const std::int64_t n : shape) {
    if (n < 2)
      throw std::invalid_argument("FFT: length must be >= 2 (got " + std::to_string(n) + ")");
    lengths.push_back(static_cast<int>(n));
    n_ *= n;
  }
  spectrum_size_ = n_ / shape.back() * (shape.back() / 2 + 1);
  const int rank = static_cast<int>(lengths.size());
  const std::lock_guard<std::mutex> lock(planner_mutex());
  double* x = fftw_alloc_real(static_cast<std::size_t>(n_));
  fftw_complex* spectrum = fftw_alloc_complex(static_cast<std::size_t>(spectrum_size_));
  for (int unaligned = 0; unaligned < 2; ++unaligned) {
    const unsigned flags = FFTW_ESTIMATE | (unaligned ? FFTW_UNALIGNED : 0u);
    forward_plans_[unaligned] = fftw_plan_dft_r2c(rank, lengths.data(), x, spectrum, flags);
    backward_plans_[unaligned] =
        fftw_plan_dft_c2r(rank, lengths.data(), spectrum, x, flags | FFTW_DESTROY_INPUT);
  }
  fftw_free(spectrum);
  fftw_free(x);
  for (int unaligned = 0; unaligned < 2; ++unaligned)
    if (!forward_plans_[unaligned] || !backward_plans_[unaligned])
      throw std::runtime_error("FFT: FFTW made no plan for " + std::to_string(n_) + " points");
}

RealFft::~RealFft() {
  const std::lock_guard<std::mutex> lock(planner_mutex());
  for (int unaligned = 0; unaligned < 2; ++unaligned) {
    fftw_destroy_plan(static_cast<fftw_plan>(forward_plans_[unaligned]));
    fftw_destroy_plan(static_cast<fftw_plan>(backward_plans_[unaligned]));
  }
}

void* RealFft::plan(bool forward, bool aligned) const {
  return (forward ? forward_plans_ : backward_plans_)[aligned ? 0 : 1];
}

void RealFft::forward(const double* x, std::complex<double>* spectrum) const {
  // An out-of-place real-to-complex plan leaves its input as it was.
  fftw_execute_dft_r2c(static_cast<fftw_plan>(plan(true, simd_aligned(x, spectrum))),
                       const_cast<double*>(x), as_fftw(spectrum));
}

void RealFft::backward(std::complex<double>* spectrum, double* x) const {
  fftw_execute_dft_c2r(static_cast<fftw_plan>(plan(false, simd_aligned(spectrum, x))),
                       as_fftw(spectrum), x);
  const double scale = 1.0 / static_cast<double>(n_);
  for (std::int64_t j = 0; j < n_; ++j) x[j] *= scale;
}

}  // namespace bhpm::pde
