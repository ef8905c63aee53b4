#pragma once
/// The nonlinear parts N_i of a field system (pde/field_system.h) on plain arrays: from the
/// spectra of the q fields, the partials the expressions read (pde/periodic_box.h's
/// symbols, FFTW's inverse transforms), N_i at every point, and their spectra with the
/// 2/3 rule applied. The nonlinear parts may instead be given as code (PointwiseNonlinearity:
/// a learned operator's f_i less its linear part, pipeline/system_prediction.h).

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "pde/expression.h"
#include "pde/field_system.h"
#include "pde/periodic_box.h"
#include "pde/real_fft.h"

namespace bhpm::pde {

/// N_i of every field at every point as code: reads `partials`, writes every field's N.
struct PointwiseNonlinearity {
  std::vector<Partial> partials;
  /// values [partials][points] -> out [q][points]; a throw stops the solve.
  std::function<void(const std::vector<const double*>& values, std::int64_t points,
                     const std::vector<double*>& out)>
      evaluate;
};

class SystemNonlinearPart {
 public:
  /// Compiles each field's expression over the partials it reads; with `given`, N is
  /// given->evaluate instead, and the system must have no nonlinear expression
  /// (std::invalid_argument otherwise). `given` must outlive this.
  SystemNonlinearPart(const PeriodicBox& box, const FieldSystem& system,
                      const PointwiseNonlinearity* given = nullptr);

  /// Whether no field has a nonlinear part (evaluate then writes zeros).
  bool empty() const;
  /// The partials some expression reads.
  const std::vector<Partial>& partials() const { return partials_; }

  /// v [q, modes] (the fields' spectra) -> nv [q, modes]: the spectra of N_i, entries beyond
  /// the 2/3 rule zero. nv must not alias v.
  void evaluate(const FftSpectrum& v, FftSpectrum& nv);

 private:
  /// Fills partials_, expressions_ and inputs_ from the system's expressions.
  void compile_expressions(const FieldSystem& system);
  /// nv[field] = the spectrum of values [points], entries beyond the 2/3 rule zero.
  void transform_kept(const FftReals& values, FftSpectrum& nv, std::int64_t field);

  PeriodicBox box_;
  std::int64_t fields_;
  RealFft fft_;
  const PointwiseNonlinearity* given_;                  ///< null: the expressions
  std::vector<Partial> partials_;                       ///< read by some expression
  std::vector<std::optional<Expression>> expressions_;  ///< [q], over inputs_[i]
  std::vector<std::vector<std::size_t>> inputs_;        ///< [q]: indices into partials_
  std::vector<FftSpectrum> symbols_;                    ///< [partials_][modes]
  std::vector<FftReals> values_;                        ///< [partials_][points]
  FftSpectrum scratch_;                                 ///< [modes]
  FftReals result_;                                     ///< [points]
  std::vector<FftReals> given_results_;                 ///< given_: [q][points]
  std::vector<double> keep_;                            ///< [modes]: 1 below the 2/3 rule, else 0
};

}  // namespace bhpm::pde
