#pragma once
/// Fourier transforms of real arrays of one length n through FFTW, normalised as
/// at::fft_rfft / at::fft_irfft: forward X_k = sum_j x_j exp(-2 pi i j k / n), k = 0..n/2;
/// backward x_j = (1/n) sum over the full spectrum. Arrays of a shape [n_1, .., n_d]
/// (row-major) transform over every axis, the last one halved: spectra [n_1, .., n_d/2+1],
/// backward scaled by 1 / (n_1 ... n_d), as at::fft_rfftn / at::fft_irfftn. Plans are made once, in
/// FFTW's estimate mode (no timing runs, so every run computes the same digits), and may be
/// executed from several threads at once on arrays of any alignment; arrays from FftAllocator take
/// FFTW's SIMD code, others a slower plan that copies them.

#include <complex>
#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace bhpm::pde {

/// FFTW's allocation (aligned for its SIMD code) and its release.
void* fft_allocate(std::size_t bytes);
void fft_free(void* pointer) noexcept;

/// A std::allocator whose arrays FFTW transforms with its SIMD code.
template <typename T>
struct FftAllocator {
  using value_type = T;
  FftAllocator() = default;
  template <typename U>
  FftAllocator(const FftAllocator<U>&) {}
  T* allocate(std::size_t n) { return static_cast<T*>(fft_allocate(n * sizeof(T))); }
  void deallocate(T* pointer, std::size_t) noexcept { fft_free(pointer); }
  template <typename U>
  bool operator==(const FftAllocator<U>&) const {
    return true;
  }
  template <typename U>
  bool operator!=(const FftAllocator<U>&) const {
    return false;
  }
};

using FftReals = std::vector<double, FftAllocator<double>>;
using FftSpectrum = std::vector<std::complex<double>, FftAllocator<std::complex<double>>>;

class RealFft {
 public:
  /// Throws std::invalid_argument unless n >= 2.
  explicit RealFft(std::int64_t n);
  /// Arrays of `shape` (1 or 2 axes, each >= 2); throws std::invalid_argument otherwise.
  explicit RealFft(const std::vector<std::int64_t>& shape);
  ~RealFft();
  RealFft(const RealFft&) = delete;
  RealFft& operator=(const RealFft&) = delete;

  /// Points n (n_1 ... n_d for a shape).
  std::int64_t size() const { return n_; }
  /// Spectrum length n/2+1 (n_1 ... n_{d-1} (n_d/2+1) for a shape).
  std::int64_t spectrum_size() const { return spectrum_size_; }
  /// x [n] -> X [n/2+1]; x is left as it was.
  void forward(const double* x, std::complex<double>* spectrum) const;
  /// X [n/2+1] -> x [n] (the parts of X that a real x cannot hold ignored); X is
  /// overwritten.
  void backward(std::complex<double>* spectrum, double* x) const;

 private:
  /// fftw_plan for arrays aligned as FftAllocator's [0] and for any arrays [1].
  void* plan(bool forward, bool aligned) const;

  std::int64_t n_;
  std::int64_t spectrum_size_;
  void* forward_plans_[2];
  void* backward_plans_[2];
};

}  // namespace bhpm::pde
