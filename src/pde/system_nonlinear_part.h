#pragma once
/// The nonlinear parts N_i of a field system (pde/field_system.h) on plain arrays: from the
/// spectra of the q fields, the partials the expressions read (pde/periodic_box.h's
/// symbols, FFTW's inverse transforms), N_i at every point, and their spectra with the
/// 2/3 rule applied.

#include <cstdint>
#include <optional>
#include <vector>

#include "pde/expression.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/real_fft.h"

namespace bhpm::pde {

class SystemNonlinearPart {
 public:
  /// Compiles each field's expression over the partials it reads.
  SystemNonlinearPart(const PeriodicBox& box, const FieldSystem& system);

  /// Whether no field has a nonlinear part (evaluate then writes zeros).
  bool empty() const;
  /// The partials some expression reads.
  const std::vector<Partial>& partials() const { return partials_; }

  /// v [q, modes] (the fields' spectra) -> nv [q, modes]: the spectra of N_i, entries beyond
  /// the 2/3 rule zero. nv must not alias v.
  void evaluate(const FftSpectrum& v, FftSpectrum& nv);

 private:
  PeriodicBox box_;
  std::int64_t fields_;
  RealFft fft_;
  std::vector<Partial> partials_;                       ///< read by some expression
  std::vector<std::optional<Expression>> expressions_;  ///< [q], over inputs_[i]
  std::vector<std::vector<std::size_t>> inputs_;        ///< [q]: indices into partials_
  std::vector<FftSpectrum> symbols_;                    ///< [partials_][modes]
  std::vector<FftReals> values_;                        ///< [partials_][points]
  FftSpectrum scratch_;                                 ///< [modes]
  FftReals result_;                                     ///< [points]
  std::vector<double> keep_;                            ///< [modes]: 1 below the 2/3 rule, else 0
};

}  // namespace bhpm::pde
